// Starts Swagger UI on the app's OpenAPI document (kept out of the page: no inline scripts).
const root = document.getElementById("swagger-ui");

function operationOf(element) {
  const summary = element.closest(".opblock")?.querySelector(".opblock-summary");
  const method = summary?.querySelector(".opblock-summary-method")?.textContent ?? "";
  return `${method} ${summary?.querySelector(".opblock-summary-path")?.dataset.path ?? ""}`.trim();
}

// Swagger UI leaves some fields without a name, scrolling code out of the keyboard's reach, its
// intro outside any landmark and skips from h1 to h3; this mends what each render adds.
function makeAccessible() {
  for (const field of root.querySelectorAll(":is(input, select, textarea):not([aria-label])")) {
    if (field.labels.length) continue;
    const row = field.closest("tr[data-param-name], tr[data-property-name]");
    const name = row ? row.dataset.paramName ?? row.dataset.propertyName : "Request body";
    const what = field.type === "checkbox" ? `Send empty value for ${name}` : name;
    field.setAttribute("aria-label", `${what} of ${operationOf(field)}`);
  }
  for (const code of root.querySelectorAll("pre:not(.version, [tabindex])")) {
    code.tabIndex = 0;
  }
  for (const table of root.querySelectorAll("table[role=region]:not([aria-label])")) {
    table.setAttribute("aria-label", `Responses of ${operationOf(table)}`);
  }
  for (const intro of root.querySelectorAll(".information-container:not([role])")) {
    intro.setAttribute("role", "region");
    intro.setAttribute("aria-label", "About this API");
  }
  for (const heading of root.querySelectorAll(":is(h3, h4, h5, h6):not([aria-level])")) {
    heading.setAttribute("aria-level", String(Number(heading.tagName[1]) - 1));
  }
}

new MutationObserver(makeAccessible).observe(root, { childList: true, subtree: true });
SwaggerUIBundle({ url: root.dataset.openapiUrl, dom_id: "#swagger-ui", syntaxHighlight: false });
