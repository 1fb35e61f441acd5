"""Admin network fabrics: each provider's product's fabric inside and between nodes, and a cluster
product's GPUs from-to, added or changed as a new catalog version with its source."""

from __future__ import annotations

from decimal import Decimal
from functools import partial
from typing import Annotated, Any, cast
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import AfterValidator, ValidationInfo
from sqlmodel import Session

from app.admin.tables import AdminUser
from app.catalog import rows as check
from app.catalog.fabric import BETWEEN_SAID, FABRIC_CHECKS, FabricRecord, fabric_refused
from app.catalog.fabric_changes import fabric_changed, offered_product, save_fabric
from app.catalog.queries import provider_by_slug
from app.catalog.tables import CatalogVersion
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database, PostedForm
from app.web.admin.forms import SOURCE_KINDS, Errors, FactEdit, answer, checked, in_catalog
from app.web.admin.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)

KNOWN_PROVIDER = in_catalog(provider_by_slug, "choose a provider of the catalog (add it under Providers first)")


def _offered(product: str, info: ValidationInfo) -> str:
    """The product, if an offer of the provider chosen is of it; with no provider read, its own message says why."""
    provider = info.data.get("provider")
    return product if provider is None else offered_product(cast(Session, info.context), provider, product)


class FabricEdit(FactEdit):
    """A provider's product's network as its source states it; the provider and product decide whether it is new."""

    conflict = "Someone changed this fabric after you opened the page; the current one is shown, yours below."
    provider: Annotated[str, checked(check.provider_slug), KNOWN_PROVIDER]
    product: Annotated[str, checked(FABRIC_CHECKS["product"]), AfterValidator(_offered)]
    gpus_per_node: Annotated[int, checked(FABRIC_CHECKS["gpus_per_node"])]
    intra_node: Annotated[str, checked(FABRIC_CHECKS["intra_node"])]
    inter_node: Annotated[str, checked(FABRIC_CHECKS["inter_node"])]
    inter_node_kind: Annotated[str, checked(FABRIC_CHECKS["inter_node_kind"])]
    inter_node_gbps: Annotated[Decimal | None, checked(FABRIC_CHECKS["inter_node_gbps"])]
    min_cluster_gpus: Annotated[int | None, checked(FABRIC_CHECKS["min_cluster_gpus"])]
    max_cluster_gpus: Annotated[int | None, checked(FABRIC_CHECKS["max_cluster_gpus"])]

    def refused(self) -> Errors:
        return fabric_refused(self.model_dump())

    @property
    def fabric(self) -> dict[str, Any]:
        """What `save_fabric` stores: every field of FABRIC_CHECKS but the product, which names the record."""
        return {name: getattr(self, name) for name in FABRIC_CHECKS if name != "product"}


def _typed(now: FabricRecord) -> dict[str, str]:
    """A stored fabric as an admin would type it again: 3200, not 3200.0; nothing as empty."""
    figures = {"inter_node_gbps": now.inter_node_gbps, "min_cluster_gpus": now.min_cluster_gpus,
               "max_cluster_gpus": now.max_cluster_gpus}  # fmt: skip
    typed = {name: "" if value is None else check.decimal_text(Decimal(str(value))) for name, value in figures.items()}
    named = {"provider": now.provider, "product": now.product, "gpus_per_node": str(now.gpus_per_node)}
    words = {"intra_node": now.intra_node, "inter_node": now.inter_node, "inter_node_kind": now.inter_node_kind}
    return named | words | typed | {"notes": now.notes}


def _page(
    request: Request, admin: AdminUser, db: Database, catalogs: CatalogsDep, provider: str = "", product: str = "",
    status: int = 200, errors: Errors | None = None, values: dict[str, str] | None = None,
) -> Response:  # fmt: skip
    """Every product's fabric now and a fabric's form (`provider`'s `product`'s, else empty but for those two);
    refused as stale, with the change that came first."""
    catalog = catalogs.current()
    now = catalog.fabrics.get((provider, product))
    with db() as session:
        based_on = fabric_changed(session, provider, product) if provider and product else 0
        change = session.get(CatalogVersion, based_on) if errors and "conflict" in errors else None
    opened = _typed(now) if now else {"provider": provider, "product": product}
    return admin_page(
        request, admin, "fabrics", status, fabrics=catalog.fabrics.values(), providers=catalog.providers, now=now,
        based_on=based_on, change=change, source_kinds=SOURCE_KINDS, errors=errors or {},
        values=opened | (values or {}), provider_options=[(p.slug, p.name) for p in catalog.providers.values()],
        kinds=list(BETWEEN_SAID.items()),
    )  # fmt: skip


@router.get("/fabrics", response_class=HTMLResponse)
def fabrics(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, provider: str = "", product: str = ""
) -> Response:
    return _page(request, admin, db, catalogs, provider, product)


@router.post("/fabrics", response_class=HTMLResponse)
def save_product_fabric(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, posted: PostedForm
) -> Response:
    """A product's every fabric field as a new version; its provider and product decide whether it is new."""

    def save(session: Session, edit: FabricEdit) -> str:
        save_fabric(session, edit.provider, edit.product, edit.fabric, edit.provenance, edit.change(admin.username))
        return f"/admin/fabrics?{urlencode({'provider': edit.provider, 'product': edit.product})}"

    page = partial(_page, request, admin, db, catalogs, posted.get("provider", ""), posted.get("product", ""))
    return answer(FabricEdit, posted, db, save, page)
