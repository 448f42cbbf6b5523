"""A person's sign-out, deactivation, changed password or lost role reaches their open live
screens at once: each is told through the person's ``user.<id>`` group
(``floor.changes.access_changed``) and checks again (``feed.consumers.ScreenConsumer``)."""

from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import m2m_changed, post_save
from django.dispatch import receiver

from floor.changes import access_changed
from staff.models import User


@receiver(user_logged_out, dispatch_uid="staff-screens-sign-out")
def screens_sign_out(sender, request, user, **kwargs):
    if user is None:
        return
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        # End the session before the screens are told (logout() flushes it only after
        # this signal), so a screen that checks at once finds it gone.
        session.delete()
    access_changed(user_id=user.pk)


@receiver(post_save, sender=User, dispatch_uid="staff-screens-person-changed")
def screens_person_changed(sender, instance, created, raw=False, update_fields=None, **kwargs):
    if created or raw:
        return
    fields = set(update_fields or ())
    if not instance.is_active or update_fields is None or "password" in fields:
        access_changed(user_id=instance.pk)


@receiver(m2m_changed, sender=User.groups.through, dispatch_uid="staff-screens-roles-changed")
def screens_roles_changed(sender, instance, action, reverse, pk_set, **kwargs):
    if action not in ("post_remove", "pre_clear"):
        return
    if not reverse:  # person.groups.remove(...) / .clear()
        access_changed(user_id=instance.pk)
    elif action == "post_remove":  # group.user_set.remove(people)
        for user_id in pk_set or ():
            access_changed(user_id=user_id)
    else:  # group.user_set.clear()
        for user_id in instance.user_set.values_list("pk", flat=True):
            access_changed(user_id=user_id)
