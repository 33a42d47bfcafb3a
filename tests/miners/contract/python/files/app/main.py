from fastapi import APIRouter, FastAPI
from starlette.middleware.cors import CORSMiddleware

app = FastAPI()
app.add_middleware(CORSMiddleware, allow_origins=["https://example.com"], max_age=600)
router = APIRouter(prefix="/items")


@router.get("/{item_id}")
def read_item(item_id: int):
    """Read one item."""
    return {"id": item_id}


class Store:
    def get(self, key, default=None):
        return self.data.get(key, default)
