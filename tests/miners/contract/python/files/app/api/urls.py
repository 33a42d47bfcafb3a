from app.api import views
from django.urls import path

api_urls = [
    path("checks/<uuid:code>/resume", views.resume, name="hc-api-resume"),
]
