import Crypto

/// The report forms' one script, served at `/static/report.<hash>.js` and loaded with `defer`: it
/// only makes a form that already works nicer.
///
/// - focuses the error summary, and its links focus their question (label in view);
/// - puts the browser's own today into the date question (and its `max`);
/// - shows the chosen photo at once (drawn on a canvas: no `blob:` URL, so `img-src` stays
///   `'self'`); makes a photo the browser can decode at most 2048 px JPEG (q 0.9) when it is over
///   3 MB or larger than 2048 px, keeping the original JPEG's header (up to its first scan, for
///   the GPS position); sends it to `/report/photo` with a progress bar, then keeps only the
///   returned token in the form; the pipeline's refusal is shown beside the question (and a photo
///   still over the upload limit is not sent: the server's own message is shown). When that
///   upload cannot be made, the (smaller) photo stays in the form and goes with it;
/// - suggests places as "where" is typed (`/api/v1/places?q=…&limit=5`, a `<datalist>`) and fills
///   in the coordinates of a chosen one; "Use my location" asks the browser, only on a tap.
enum ReportScript {
    static let source = #"""
    "use strict";
    (function () {
      document.documentElement.classList.add("js");
      var form = document.getElementById("report-form");
      var summary = document.getElementById("error-summary");
      if (summary) {
        summary.focus();
        summary.addEventListener("click", function (event) {
          var link = event.target.closest("a");
          var target = link && document.getElementById(link.hash.slice(1));
          if (!target) return;
          event.preventDefault();
          var group = target.closest("fieldset");
          var caption = group && target.type === "radio" ? group.querySelector("legend") : document.querySelector("label[for='" + target.id + "']");
          (caption || target).scrollIntoView();
          target.focus({ preventScroll: true });
        });
      }
      if (!form) return;
      var field = function (name) { return form.elements.namedItem(name); };
      var say = function (id, text) { var node = document.getElementById(id); if (node) node.textContent = text; };

      // The date: the browser's own today, never a later day.
      var date = field("last_seen_date"), dateDefault = field("date_default");
      if (date) {
        var now = new Date();
        var pad = function (n) { return (n < 10 ? "0" : "") + n; };
        var today = now.getFullYear() + "-" + pad(now.getMonth() + 1) + "-" + pad(now.getDate());
        date.max = today;
        if (dateDefault && date.value === dateDefault.value) { date.value = today; dateDefault.value = today; }
      }

      // The photo: preview, smaller when worth it, sent ahead with progress.
      var photo = field("photo"), token = field("photo_token"), progress = document.getElementById("photo-progress");
      var uploading = null, submitWhenDone = false;
      var LIMIT = 3000000, EDGE = 2048;

      function preview(bitmap) {
        var box = photo.parentNode.querySelector(".kept-photo");
        if (!box) {
          box = document.createElement("div");
          box.className = "kept-photo";
          photo.parentNode.insertBefore(box, photo);
        }
        box.textContent = "";
        var canvas = document.createElement("canvas");
        var scale = Math.min(1, 240 / Math.max(bitmap.width, bitmap.height));
        canvas.width = Math.round(bitmap.width * scale);
        canvas.height = Math.round(bitmap.height * scale);
        canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
        canvas.setAttribute("role", "img");
        canvas.setAttribute("aria-label", "The photo you chose");
        box.appendChild(canvas);
      }

      function smaller(bitmap) {
        var scale = Math.min(1, EDGE / Math.max(bitmap.width, bitmap.height));
        var canvas = document.createElement("canvas");
        canvas.width = Math.round(bitmap.width * scale);
        canvas.height = Math.round(bitmap.height * scale);
        canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
        return new Promise(function (resolve) { canvas.toBlob(resolve, "image/jpeg", 0.9); });
      }

      // The original JPEG up to its first scan: its EXIF (GPS) without its pixels.
      function header(file) {
        return file.slice(0, \#(ReportPaths.headerBytes)).arrayBuffer().then(function (buffer) {
          var b = new Uint8Array(buffer), i = 2;
          if (b[0] !== 0xFF || b[1] !== 0xD8) return null;
          while (i + 4 <= b.length && b[i] === 0xFF) {
            if (b[i + 1] === 0xDA) return file.slice(0, i);
            i += 2 + (b[i + 2] << 8 | b[i + 3]);
          }
          return null;
        });
      }

      function problem(message) {
        var wrapper = photo.closest(".field"), old = document.getElementById("photo-error");
        if (old) old.remove();
        wrapper.classList.toggle("has-error", !!message);
        if (!message) { photo.removeAttribute("aria-invalid"); return; }
        var p = document.createElement("p");
        p.className = "error-message";
        p.id = "photo-error";
        p.textContent = message;
        photo.before(p);
        photo.setAttribute("aria-invalid", "true");
        photo.setAttribute("aria-describedby", ((photo.getAttribute("aria-describedby") || "") + " photo-error").trim());
      }

      function offer(text) {
        var where = document.getElementById("where-field"), box = where && where.querySelector(".offer");
        if (!where || !text || box) return;
        box = document.createElement("div");
        box.className = "offer";
        box.innerHTML = "<p></p><div class=\"check\"><input type=\"checkbox\" id=\"use_photo_place\" name=\"use_photo_place\" value=\"1\"><label for=\"use_photo_place\">Use where the photo was taken</label></div>";
        box.firstChild.textContent = text;
        where.appendChild(box);
      }

      function keepInForm(blob, name) {
        if (!window.DataTransfer) return;
        var list = new DataTransfer();
        list.items.add(new File([blob], name, { type: blob.type }));
        photo.files = list.files;
      }

      function send(file, head) {
        var most = Number(form.getAttribute("data-max-bytes")) || 0;
        if (most && file.size > most) {
          photo.value = "";
          say("photo-status", "");
          problem(form.getAttribute("data-too-large"));
          return;
        }
        var data = new FormData();
        data.append("csrf_token", field("csrf_token").value);
        data.append("photo", file, file.name || "photo.jpg");
        if (head) data.append("\#(ReportPaths.headerPart)", head, "header.jpg");
        var request = new XMLHttpRequest();
        request.open("POST", form.getAttribute("data-photo-url"));
        progress.hidden = false;
        progress.value = 0;
        request.upload.onprogress = function (event) { if (event.lengthComputable) progress.value = 100 * event.loaded / event.total; };
        uploading = new Promise(function (done) {
          request.onloadend = function () {
            progress.hidden = true;
            var answer = null;
            try { answer = JSON.parse(request.responseText); } catch (e) { answer = null; }
            if (request.status === 201 && answer) {
              token.value = answer.token;
              photo.value = "";
              problem(null);
              say("photo-status", "Photo ready (" + answer.width + " × " + answer.height + ").");
              offer(answer.offer);
            } else if (request.status === 422 && answer && answer.error) {
              photo.value = "";
              say("photo-status", "");
              problem(answer.error.message);
            } else {
              if (file !== photo.files[0]) keepInForm(file, file.name || "photo.jpg");
              say("photo-status", "The photo will be sent with the form.");
            }
            uploading = null;
            done();
            if (submitWhenDone) { submitWhenDone = false; form.requestSubmit(); }
          };
        });
        say("photo-status", "Sending the photo…");
        request.send(data);
      }

      if (photo && token && progress && window.FormData && window.XMLHttpRequest) {
        photo.addEventListener("change", function () {
          var file = photo.files[0];
          if (!file) return;
          problem(null);
          var decoded = window.createImageBitmap ? createImageBitmap(file, { imageOrientation: "from-image" }) : Promise.reject();
          decoded.then(function (bitmap) {
            preview(bitmap);
            if (file.size <= LIMIT && Math.max(bitmap.width, bitmap.height) <= EDGE) return send(file, null);
            return Promise.all([smaller(bitmap), /jpe?g$/i.test(file.type) ? header(file) : null]).then(function (made) {
              if (!made[0]) return send(file, null);
              send(new File([made[0]], "photo.jpg", { type: "image/jpeg" }), made[1]);
            });
          }, function () {
            say("photo-status", "No preview in this browser; the photo is sent as it is.");
            send(file, null);
          });
        });
        form.addEventListener("submit", function (event) {
          if (!uploading) return;
          event.preventDefault();
          submitWhenDone = true;
          say("photo-status", "Sending the photo first…");
        });
      }

      // Where: suggestions from the gazetteer, the chosen one's coordinates, or the browser's position.
      var where = field("where"), latitude = field("latitude"), longitude = field("longitude"), resolved = field("where_resolved");
      var list = document.getElementById("where-suggestions"), locate = document.getElementById("locate");
      var known = {}, timer = null, position = null;
      function pick() {
        var place = known[where.value];
        if (place) {
          latitude.value = place.latitude;
          longitude.value = place.longitude;
          resolved.value = where.value;
        } else if (resolved.value !== where.value) {
          latitude.value = longitude.value = resolved.value = "";
        }
      }
      function suggest() {
        var text = where.value.trim();
        if (text.length < 2 || /^[-+\d.,;°\s]+$/.test(text)) return;
        var url = "/api/v1/places?q=" + encodeURIComponent(text) + "&limit=5" + (position ? "&near=" + position : "");
        fetch(url, { headers: { Accept: "application/json" } }).then(function (answer) {
          return answer.ok ? answer.json() : null;
        }).then(function (body) {
          var places = !body ? [] : Array.isArray(body) ? body : Array.isArray(body.data) ? body.data : body.name ? [body] : [];
          list.textContent = "";
          places.slice(0, 5).forEach(function (place) {
            var label = place.label || (place.name + (place.country ? ", " + place.country : ""));
            known[label] = place;
            var option = document.createElement("option");
            option.value = label;
            list.appendChild(option);
          });
          pick();
        }, function () {});
      }
      if (where && latitude && longitude && resolved && list) {
        where.addEventListener("input", function () {
          pick();
          clearTimeout(timer);
          timer = setTimeout(suggest, 250);
        });
        where.addEventListener("change", pick);
      }
      if (locate && where && navigator.geolocation) {
        locate.addEventListener("click", function () {
          say("where-status", "Asking your browser where you are…");
          navigator.geolocation.getCurrentPosition(function (spot) {
            var lat = spot.coords.latitude.toFixed(5), lon = spot.coords.longitude.toFixed(5);
            where.value = lat + ", " + lon;
            latitude.value = lat;
            longitude.value = lon;
            resolved.value = where.value;
            position = lat + "," + lon;
            say("where-status", "Your location is filled in.");
          }, function () {
            say("where-status", "Your location is not available; type a place instead.");
          }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
        });
      }
    })();
    """#

    static let hash = String(SHA256.hash(data: Array(source.utf8)).hex.prefix(16))
    static let path = "/static/report.\(hash).js"
    static let files: [String: (body: String, type: String)] = ["report.\(hash).js": (source, "text/javascript; charset=utf-8")]
}
