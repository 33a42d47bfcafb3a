from django.db import models


class Check(models.Model):
    name = models.CharField(max_length=100, blank=True)
    timeout = models.IntegerField(default=86400)
