"""Refusals that never become a 500: validation errors answered without echoing the bad input."""

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse


async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
    """422 naming each field. The input is left out: NaN or Infinity in a JSON body has no JSON
    form, and echoing it would turn a clear refusal into a server error."""
    detail = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
    return JSONResponse({"detail": detail}, status_code=422)
