from app.api.urls import api_urls
from django.urls import include, path

urlpatterns = [
    path("api/v3/", include(api_urls)),
]
