from app import views
from django.urls import include, path

api_urls = [
    path("checks/<uuid:code>/pause", views.pause, name="hc-api-pause"),
]

urlpatterns = [
    path("api/v1/", include(api_urls)),
    path("about/", views.about, name="about"),
]
