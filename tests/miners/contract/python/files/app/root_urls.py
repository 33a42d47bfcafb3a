from django.urls import include, path

from app.api.urls import api_urls

urlpatterns = [
    path("api/v3/", include(api_urls)),
]
