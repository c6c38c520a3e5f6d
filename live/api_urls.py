from django.urls import path

from . import views

urlpatterns = [
    path("tables/<id:table_id>/stream/", views.table_stream, name="api-table-stream"),
    path("stream/", views.player_stream, name="api-stream"),
]
