from django.urls import path

from app.api import views

api_urls = [
    path("checks/<uuid:code>/resume", views.resume, name="hc-api-resume"),
]
