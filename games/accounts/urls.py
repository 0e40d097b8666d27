from django.contrib.auth import views as auth_views
from django.urls import path

from games.accounts import preference_views
from games.accounts import views as views_accounts

urlpatterns = [
    path("signup/", views_accounts.signup, name="signup"),
    path("login/", views_accounts.LoginView.as_view(), name="login"),
    path("logout/", views_accounts.LogoutView.as_view(), name="logout"),
    path("password/change/", views_accounts.PasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("password/reset/", views_accounts.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        views_accounts.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("u/<str:username>/", views_accounts.profile, name="profile"),
    path("u/<str:username>/data.json", views_accounts.download_data, name="account_data"),
    path("delete/", views_accounts.delete_account, name="account_delete"),
    path("table/", preference_views.table_preferences, name="table_preferences"),
    path("deleted/", views_accounts.account_deleted, name="account_deleted"),
]
