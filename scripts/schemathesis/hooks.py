"""schemathesis hooks for petspot-server: what a generator cannot know about the contract.

- Photo uploads carry Basic credentials that belong to the announcement in the path: ids
  created during the run (stateful links or our own) are remembered with their passwords.
- Positive photo uploads send a real JPEG (a random `format: binary` is rightly 415), and a
  real stored photo key is used for GET /photos/{key} (and its digest for the variants).
- Positive creates keep `last_seen_date` within the rule the schema states in words (not in the
  future), which JSON Schema cannot express, and get an Idempotency-Key of their own (a key
  reused with another body is rightly 422).
- Positive photo and variant requests with a Range ask for the first 100 bytes (a valid range
  past a small photo's end is rightly 416).
- Positive list requests (the API's and the `/` page) with a cursor use a real `next_cursor` (an
  opaque value the server did not write is rightly 400).
- Positive match lists ask for an announcement that exists (the one holding the sample photo).
- Positive searches near a point (`near`, `near_place`, and the place finder's `near`) name one
  point, in range (the pattern cannot say -90…90), and a place the server knows; `radius_km` and `since` come with one; a
  cursor is one of this search's (a plain list's cursor is rightly 400 in a search, and the
  other way round). JSON Schema cannot say "one of these two parameters". A positive chip
  lookup names no point and no closed status (a chip finds its pet wherever it was reported).
- The manage page's form (POST /pets/{id}/manage) is sent by a browser signed in to one
  announcement, with its cookies and CSRF token: without them every post is rightly 403. So is
  "Forgot the password?" (POST /pets/{id}/manage/forgot), with an email address.
- The owner's changes (PATCH, DELETE of the photo or the announcement) carry the credentials of
  the announcement in the path; deletions always get an announcement of their own, made for
  them, so the one holding the sample photo stays. A positive PATCH's `status` is one the
  announcement can take (its own kind to reopen, or CLOSED with an outcome), which JSON Schema
  cannot say.

The server's URL comes from PETSPOT_BASE_URL and the photo from PETSPOT_SAMPLE_PHOTO.
    PETSPOT_BASE_URL=http://127.0.0.1:8080 PETSPOT_SAMPLE_PHOTO=TestImages/jpeg-baseline.jpg \
    SCHEMATHESIS_HOOKS=hooks schemathesis --config-file scripts/schemathesis/schemathesis.toml run openapi.yaml ...
"""
import base64
import datetime
import http.client
import json
import os
import re
import threading
import urllib.parse
import urllib.request
import uuid

import schemathesis
from schemathesis import GenerationMode

BASE = os.environ["PETSPOT_BASE_URL"].rstrip("/")
PHOTO = open(os.environ["PETSPOT_SAMPLE_PHOTO"], "rb").read()
ANNOUNCEMENT = json.dumps({
    "species": "DOG", "sex": "MALE", "last_seen_date": "2025-11-18",
    "location_latitude": 52.2297, "location_longitude": 21.0122,
    "email": "owner@example.com", "phone": "+48123456789", "status": "MISSING",
}).encode()

_passwords = {}
_kinds = {}
_lock = threading.Lock()


def _remember(body):
    with _lock:
        _passwords[body["id"]] = body["management_password"]
        _kinds[body["id"]] = body.get("status", "MISSING")


def _create():
    request = urllib.request.Request(BASE + "/api/v1/announcements", data=ANNOUNCEMENT, method="POST",
                                     headers={"Content-Type": "application/json"})
    body = json.load(urllib.request.urlopen(request, timeout=30))
    _remember(body)
    return body["id"]


def _authorization(announcement_id):
    token = base64.b64encode(f"{announcement_id}:{_passwords[announcement_id]}".encode()).decode()
    return "Basic " + token


def _upload(announcement_id):
    boundary = "hooks-boundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"dog.jpg\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode() + PHOTO + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(BASE + f"/api/v1/announcements/{announcement_id}/photos", data=body, method="POST",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}",
                                              "Authorization": _authorization(announcement_id)})
    url = json.load(urllib.request.urlopen(request, timeout=60))["photo_url"]
    return url.rsplit("/", 1)[1]


def _owner_session():
    """A browser signed in to a new announcement's manage page: its id, cookies and CSRF token."""
    announcement_id = _create()
    host = urllib.parse.urlsplit(BASE)
    path = f"/pets/{announcement_id}/manage"

    def send(method, target, body=None, headers=None):
        connection = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
        connection.request(method, target, body=body, headers=headers or {})
        response = connection.getresponse()
        answer = (response.status, response.getheader("Set-Cookie") or "", response.read().decode())
        connection.close()
        return answer

    _, form_cookie, page = send("GET", path)
    form = form_cookie.split(";")[0]
    token = re.search(r'name="csrf_token" value="([^"]*)"', page).group(1)
    body = urllib.parse.urlencode({"csrf_token": token, "password": _passwords[announcement_id]})
    status, owner_cookie, _ = send("POST", path + "/sign-in", body,
                                   {"Content-Type": "application/x-www-form-urlencoded", "Cookie": form})
    assert status == 303 and owner_cookie.startswith("petspot_owner="), (status, owner_cookie)
    return announcement_id, form + "; " + owner_cookie.split(";")[0], token


PHOTO_ID = _create()
PHOTO_KEY = _upload(PHOTO_ID)
_create()
OWNER_ID, OWNER_COOKIES, OWNER_TOKEN = _owner_session()
CURSOR = json.load(urllib.request.urlopen(BASE + "/api/v1/announcements?limit=1", timeout=30))["next_cursor"]


def _operation(case):
    return case.operation.method.upper() + " " + case.operation.path


def _positive(case):
    return case.meta is None or case.meta.generation.mode == GenerationMode.POSITIVE


@schemathesis.hook
def after_call(context, case, response):
    if _operation(case) == "POST /api/v1/announcements" and response.status_code == 201:
        _remember(response.json())


@schemathesis.hook
def map_case(context, case):
    operation = _operation(case)
    if operation in ("GET /photos/{key}", "GET /photos/{digest}/{variant}", "HEAD /photos/{key}",
                     "HEAD /photos/{digest}/{variant}") and _positive(case) and case.headers \
            and "Range" in case.headers:
        # A syntactically valid range past a small photo's end is rightly 416, which the
        # positive-data check counts as a rejection: positive cases ask for the first bytes.
        case.headers["Range"] = "bytes=0-99"
    if operation == "POST /pets/{id}/manage" and _positive(case):
        # The owner's browser: its session and its form's token, so the form itself is judged.
        case.path_parameters["id"] = OWNER_ID
        case.headers = dict(case.headers or {}, Cookie=OWNER_COOKIES)
        fields = case.body if isinstance(case.body, dict) else {}
        case.body = {name: str(value) for name, value in fields.items()} | {"csrf_token": OWNER_TOKEN}
    if operation == "POST /pets/{id}/manage/forgot" and _positive(case):
        # A browser that was shown the page: its form cookie and token (without them, rightly
        # 403), and an address (a string that is not one is rightly 422).
        case.path_parameters["id"] = OWNER_ID
        case.headers = dict(case.headers or {}, Cookie=OWNER_COOKIES)
        case.body = {"csrf_token": OWNER_TOKEN, "email": "owner@example.com"}
    if operation == "GET /api/v1/announcements/{id}/matches" and _positive(case):
        case.path_parameters["id"] = PHOTO_ID
    if operation in ("GET /photos/{key}", "HEAD /photos/{key}") and _positive(case):
        case.path_parameters["key"] = PHOTO_KEY
    elif operation == "POST /api/v1/announcements/{id}/photos" and _positive(case) and isinstance(case.body, dict):
        case.body["photo"] = PHOTO
    if operation in ("GET /api/v1/announcements", "GET /") and _positive(case) and case.query \
            and str(case.query.get("chip", "")).strip(" .+-"):
        _fit_chip_search(case.query)
    if operation == "GET /api/v1/announcements" and _positive(case) and case.query and (
            {"near", "near_place", "radius_km", "since"} & set(case.query)):
        _fit_near_search(case.query)
    elif operation == "GET /api/v1/places" and _positive(case) and case.query and "near" in case.query:
        _fit_point(case.query)
    elif operation in ("GET /api/v1/announcements", "GET /") and _positive(case) and (case.query or {}).get("cursor"):
        case.query["cursor"] = CURSOR
    elif operation in ("GET /photos/{digest}/{variant}", "HEAD /photos/{digest}/{variant}") and _positive(case):
        case.path_parameters["digest"] = PHOTO_KEY.split(".")[0]
    elif operation == "PATCH /api/v1/announcements/{id}" and _positive(case) and isinstance(case.body, dict):
        seen = case.body.get("last_seen_date")
        if isinstance(seen, str) and seen > datetime.date.today().isoformat():
            case.body["last_seen_date"] = datetime.date.today().isoformat()
    elif operation == "POST /api/v1/announcements" and _positive(case) and isinstance(case.body, dict):
        if case.headers and "Idempotency-Key" in case.headers:
            case.headers["Idempotency-Key"] = str(uuid.uuid4())
        seen = case.body.get("last_seen_date")
        today = datetime.date.today().isoformat()
        if isinstance(seen, str) and seen > today:
            case.body["last_seen_date"] = today
    return case


def _fit_near_search(query):
    """A positive search near a point as the server can answer it."""
    if "near_place" in query:
        query.pop("near", None)
        query["near_place"] = "Warsaw"
    else:
        _fit_point(query)
    query.pop("cursor", None)


def _fit_chip_search(query):
    """A positive chip lookup as the server answers it: a chip finds its pet wherever it was
    reported, so no point to search near, and only open announcements."""
    for name in ("near", "near_place", "radius_km", "since"):
        query.pop(name, None)
    if str(query.get("status", "")).lower() == "closed":
        query.pop("status")


def _fit_point(query):
    """`near` as one point in range, which the pattern cannot say (-90…90, -180…180)."""
    try:
        latitude, longitude = (float(part) for part in str(query.get("near", "")).split(","))
        in_range = -90 <= latitude <= 90 and -180 <= longitude <= 180
    except ValueError:
        in_range = False
    if not in_range:
        query["near"] = "52.2297,21.0122"


def _fit_status(case, announcement_id):
    """A positive patch's status as the announcement can take it."""
    body = case.body
    if not _positive(case) or not isinstance(body, dict):
        return
    with _lock:
        kind = _kinds.get(announcement_id, "MISSING")
    status = body.get("status")
    if status == "CLOSED" or (status is None and "closed_outcome" in body):
        body["status"] = "CLOSED"
        body.setdefault("closed_outcome", "REUNITED")
    elif status is not None:
        body["status"] = kind
        body.pop("closed_outcome", None)


@schemathesis.auth(refresh_interval=None, retry_on=[]).apply_to(operation_id=["uploadPhoto", "updateAnnouncement"])
class AnnouncementCredentials:
    """The management credentials of the announcement in the path (created when unknown)."""

    def get(self, case, context):
        announcement_id = (case.path_parameters or {}).get("id")
        with _lock:
            known = announcement_id in _passwords
        if not known:
            announcement_id = _create()
        return announcement_id

    def set(self, case, announcement_id, context):
        case.path_parameters = dict(case.path_parameters or {}, id=announcement_id)
        case.headers = dict(case.headers or {}, Authorization=_authorization(announcement_id))
        if _operation(case) == "PATCH /api/v1/announcements/{id}":
            _fit_status(case, announcement_id)
            # A stale If-Match is rightly 412: positive cases ask for any version.
            if _positive(case) and case.headers.get("If-Match") is not None:
                case.headers["If-Match"] = "*"


@schemathesis.auth(refresh_interval=None, retry_on=[]).apply_to(operation_id=["deleteAnnouncement", "deletePhoto"])
class FreshAnnouncementCredentials:
    """A new announcement for each deletion, so nothing another case reads goes away."""

    def get(self, case, context):
        return _create()

    def set(self, case, announcement_id, context):
        case.path_parameters = dict(case.path_parameters or {}, id=announcement_id)
        case.headers = dict(case.headers or {}, Authorization=_authorization(announcement_id))
