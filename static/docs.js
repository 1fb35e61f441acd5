// Starts Swagger UI on the app's OpenAPI document (kept out of the page: no inline scripts).
const root = document.getElementById("swagger-ui");
SwaggerUIBundle({ url: root.dataset.openapiUrl, dom_id: "#swagger-ui" });
