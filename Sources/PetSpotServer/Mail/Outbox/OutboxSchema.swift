/// The outbox's tables, the same on both stores (times in seconds since 1970, as the
/// announcements'): SQLite's migration v11 and PostgreSQL's 10.
///
/// - `outbox`: one row per message or piece of work, `queued` until it is `sent`, `failed` or
///   `cancelled` (a message's content is erased then; the row stays a week as the record of what
///   happened: attempts, the last error). `lease_until`/`lease_token` are SQLite's claim.
/// - `outbox_once`: keys an item may be written under once ever (`match:MISSING:FOUND`,
///   `alert:SUBSCRIPTION:ANNOUNCEMENT`).
/// - `match_mail_off`: announcements whose owner turned possible-match mail off.
/// - `alert_subscription`: an address following an area, unconfirmed until its link is followed.
enum OutboxSchema {
    static let sqlite = """
        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            state TEXT NOT NULL DEFAULT 'queued',
            recipient TEXT,
            message_id TEXT UNIQUE,
            content BLOB,
            announcement_id TEXT,
            related_id TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            due_at REAL NOT NULL,
            lease_until REAL,
            lease_token TEXT,
            finished_at REAL,
            last_error TEXT
        );
        CREATE INDEX outbox_due ON outbox(due_at) WHERE state = 'queued';
        CREATE INDEX outbox_announcement ON outbox(announcement_id, kind, created_at);
        CREATE INDEX outbox_related ON outbox(related_id, kind, created_at);
        CREATE INDEX outbox_recipient ON outbox(lower(recipient), kind, created_at);
        CREATE INDEX outbox_finished ON outbox(finished_at) WHERE finished_at IS NOT NULL;
        CREATE TABLE outbox_once (key TEXT PRIMARY KEY NOT NULL, at REAL NOT NULL);
        CREATE INDEX outbox_once_at ON outbox_once(at);
        CREATE TABLE match_mail_off (announcement_id TEXT PRIMARY KEY NOT NULL, at REAL NOT NULL);
        CREATE TABLE alert_subscription (
            id TEXT PRIMARY KEY NOT NULL,
            email TEXT NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            radius_km REAL NOT NULL,
            place TEXT NOT NULL,
            species TEXT,
            status TEXT,
            cadence TEXT NOT NULL,
            created_at REAL NOT NULL,
            confirmed_at REAL,
            digest_after REAL NOT NULL
        );
        CREATE INDEX alert_subscription_point ON alert_subscription(latitude, longitude) WHERE confirmed_at IS NOT NULL;
        CREATE INDEX alert_subscription_digest ON alert_subscription(digest_after) WHERE confirmed_at IS NOT NULL AND cadence = 'daily';
        CREATE INDEX alert_subscription_unconfirmed ON alert_subscription(created_at) WHERE confirmed_at IS NULL;
        """

    static let postgres: [String] = [
        """
        CREATE TABLE outbox (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            kind text NOT NULL,
            state text NOT NULL DEFAULT 'queued',
            recipient text,
            message_id text UNIQUE,
            content bytea,
            announcement_id text,
            related_id text,
            attempts integer NOT NULL DEFAULT 0,
            created_at double precision NOT NULL,
            due_at double precision NOT NULL,
            lease_until double precision,
            lease_token text,
            finished_at double precision,
            last_error text
        )
        """,
        "CREATE INDEX outbox_due ON outbox (due_at) WHERE state = 'queued'",
        "CREATE INDEX outbox_announcement ON outbox (announcement_id, kind, created_at)",
        "CREATE INDEX outbox_related ON outbox (related_id, kind, created_at)",
        "CREATE INDEX outbox_recipient ON outbox (lower(recipient), kind, created_at)",
        "CREATE INDEX outbox_finished ON outbox (finished_at) WHERE finished_at IS NOT NULL",
        "CREATE TABLE outbox_once (key text PRIMARY KEY, at double precision NOT NULL)",
        "CREATE INDEX outbox_once_at ON outbox_once (at)",
        "CREATE TABLE match_mail_off (announcement_id text PRIMARY KEY, at double precision NOT NULL)",
        """
        CREATE TABLE alert_subscription (
            id text PRIMARY KEY,
            email text NOT NULL,
            latitude double precision NOT NULL,
            longitude double precision NOT NULL,
            radius_km double precision NOT NULL,
            place text NOT NULL,
            species text,
            status text,
            cadence text NOT NULL,
            created_at double precision NOT NULL,
            confirmed_at double precision,
            digest_after double precision NOT NULL
        )
        """,
        "CREATE INDEX alert_subscription_point ON alert_subscription (latitude, longitude) WHERE confirmed_at IS NOT NULL",
        "CREATE INDEX alert_subscription_digest ON alert_subscription (digest_after) WHERE confirmed_at IS NOT NULL AND cadence = 'daily'",
        "CREATE INDEX alert_subscription_unconfirmed ON alert_subscription (created_at) WHERE confirmed_at IS NULL",
    ]

    /// The columns an ``OutboxEntry`` is read from.
    static let entryColumns = "id, kind, recipient, message_id, content, announcement_id, related_id, attempts, created_at, due_at"
    static let subscriptionColumns = "id, email, latitude, longitude, radius_km, place, species, status, cadence, created_at, confirmed_at, digest_after"
}
