"""A catalog with Lambda, Azure and OCI offers, and an HTTP client that answers from recorded/."""

import io
import zipfile
from pathlib import Path

import httpx
import pytest

from app.refresh.azure import first_page
from tests.factories import make_offer, make_provider

RECORDED = Path(__file__).parent / "recorded"
LAMBDA_URL = "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v8/lambda/vms.csv"
AZURE = "https://prices.azure.test/api/retail/prices"
AZURE_PAGE_2 = "https://prices.azure.test/api/retail/prices?$filter=gpu&$skip=100"
OCI = "https://oracle.test/products/?currencyCode=USD"
ECB = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
GPUHUNT = "https://dstack-gpu-pricing.s3.eu-west-1.amazonaws.com/v3"
GPUHUNT_VERSION = "20261130-412"


@pytest.fixture
def sources_catalog(session):
    """Lambda: 8x H100 in us-east-1 at 23.92/h, 8x V100 at 6.32/h. Azure: NC24ads A100 v4 in eastus
    at 3.00/h, spot 0.50/h. OCI: BM.GPU.H100.8 in two regions at 64.00/h, VM.GPU.A10.1 at 1.50/h."""
    lambda_, azure, oci = (make_provider(session, slug) for slug in ("lambda", "azure", "oci"))
    make_offer(session, lambda_, "23.92", product="gpu_8x_h100_sxm5", gpus_per_unit=8)
    make_offer(session, lambda_, "6.32", product="gpu_8x_v100", gpu="V100", gpus_per_unit=8)
    make_offer(session, lambda_, "99", product="gpu_1x_unlisted", gpu="V100")
    make_offer(session, azure, "3.00", product="Standard_NC24ads_A100_v4", gpu="A100-80GB", region="eastus")
    make_offer(session, azure, "0.50", "virtualized", "spot", product="Standard_NC24ads_A100_v4", gpu="A100-80GB",
               region="eastus")  # fmt: skip
    for region in ("us-ashburn-1", "eu-frankfurt-1"):
        make_offer(session, oci, "64", "bare_metal", product="BM.GPU.H100.8", gpus_per_unit=8, region=region)
    make_offer(session, oci, "1.50", product="VM.GPU.A10.1", gpu="A10", region="us-ashburn-1")
    make_offer(session, oci, "99", product="unused", gpu="B200", region="us-ashburn-1")


def answering(routes: dict[str, httpx.Response | Exception]) -> httpx.Client:
    """A client whose every GET is answered from `routes` by URL (query included); 404 otherwise."""

    def handle(request: httpx.Request) -> httpx.Response:
        found = routes.get(str(request.url), httpx.Response(404))
        if isinstance(found, Exception):
            raise found
        return found

    return httpx.Client(transport=httpx.MockTransport(handle))


def recorded(name: str) -> httpx.Response:
    return httpx.Response(200, content=(RECORDED / name).read_bytes())


def zipped(provider: str, csv_text: str) -> bytes:
    """A catalog as gpuhunt publishes it: `<provider>.csv` alone in a zip."""
    body = io.BytesIO()
    with zipfile.ZipFile(body, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{provider}.csv", csv_text)
    return body.getvalue()


def gpuhunt_routes(provider: str, csv_text: str | None = None, version: str = GPUHUNT_VERSION) -> dict:
    """gpuhunt's `version` file naming `version`, and that version's catalog zip of `csv_text`
    (by default the recorded sample `gpuhunt_<provider>.csv`)."""
    text = csv_text if csv_text is not None else (RECORDED / f"gpuhunt_{provider}.csv").read_text()
    return {
        f"{GPUHUNT}/{provider}/version": httpx.Response(200, text=f"{version}\n"),
        f"{GPUHUNT}/{provider}/{version}/catalog.zip": httpx.Response(200, content=zipped(provider, text)),
    }


def azure_routes(**overrides):
    """Azure's two recorded pages, at the test address AZURE (which the settings must name)."""
    return {str(httpx.URL(first_page(AZURE))): recorded("azure_page1.json"),
            AZURE_PAGE_2: recorded("azure_page2.json"), **overrides}  # fmt: skip
