/// The form rules of the product's specs, one function per rule.
///
/// Each function checks one field and returns the issue to show, or `nil` when the value is
/// fine. Form values (``OwnerContactDetails``, ``AnimalDescriptionDetails``) and the flow drafts
/// combine them so `validate` reports every problem at once; the server reuses them through
/// ``CreateAnnouncementRequest/validate(today:)``.
public enum FormRules {}
