import { Effect } from "effect"
import * as Migrator from "effect/sql/Migrator"
import { SqlClient } from "effect/sql/SqlClient"

/** Runs DDL statements one by one (the extended protocol takes one statement at a time). */
const statements = (...ddl: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    for (const statement of ddl) yield* sql.unsafe(statement)
  })

/**
 * The one list of migrations, identical on PGlite and PostgreSQL. Append only: a migration
 * that has shipped is never edited; a change is a new entry.
 */
export const migrations = {
  "0001_foundation": statements(
    `CREATE TABLE admins (
      id uuid PRIMARY KEY,
      email text NOT NULL,
      name text,
      role text NOT NULL CHECK (role IN ('super_admin', 'admin', 'moderator')),
      disabled boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      version integer NOT NULL DEFAULT 1
    )`,
    `CREATE UNIQUE INDEX admins_email_key ON admins (lower(email))`,
    `CREATE TABLE one_time_codes (
      email text PRIMARY KEY,
      code_hash text NOT NULL,
      role text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`,
    `CREATE TABLE sessions (
      id uuid PRIMARY KEY,
      token_hash text NOT NULL UNIQUE,
      admin_id uuid NOT NULL REFERENCES admins (id),
      role text NOT NULL,
      ip text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`,
    `CREATE INDEX sessions_admin_idx ON sessions (admin_id)`,
    `CREATE TABLE rate_limits (
      key text PRIMARY KEY,
      window_start timestamptz NOT NULL,
      hits integer NOT NULL
    )`,
    `CREATE TABLE activity_log (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT now(),
      actor_id uuid,
      actor_email text,
      action text NOT NULL,
      entity text NOT NULL,
      entity_id text,
      from_state text,
      to_state text,
      ip text,
      details jsonb
    )`,
    `CREATE INDEX activity_log_at_idx ON activity_log (at DESC)`,
    `CREATE INDEX activity_log_actor_idx ON activity_log (actor_email, at DESC)`
  ),
  "0002_addresses": statements(
    `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
    `CREATE TABLE addresses (
      id uuid PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('generated', 'cex', 'core-team')),
      identifier text NOT NULL,
      name text NOT NULL,
      category text NOT NULL DEFAULT '',
      description text NOT NULL DEFAULT '',
      logo text NOT NULL DEFAULT '',
      rank integer NOT NULL DEFAULT 0,
      website text NOT NULL DEFAULT '',
      buy text NOT NULL DEFAULT '',
      role text NOT NULL DEFAULT '',
      search_text text GENERATED ALWAYS AS (lower(identifier || ' ' || name || ' ' || category || ' ' || role)) STORED,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      version integer NOT NULL DEFAULT 1
    )`,
    `CREATE UNIQUE INDEX addresses_identifier_key ON addresses (kind, lower(identifier))`,
    `CREATE INDEX addresses_created_idx ON addresses (kind, created_at DESC, id DESC)`,
    `CREATE INDEX addresses_name_idx ON addresses (kind, lower(name), id)`,
    `CREATE INDEX addresses_search_idx ON addresses USING gin (search_text gin_trgm_ops)`,
    // An unfiltered list shows its total on every page: kept per directory by statement
    // triggers, so it costs one row read instead of a count over the whole directory.
    `CREATE TABLE address_counts (kind text PRIMARY KEY, total bigint NOT NULL DEFAULT 0)`,
    `INSERT INTO address_counts (kind) VALUES ('generated'), ('cex'), ('core-team')`,
    `CREATE FUNCTION address_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE address_counts c SET total = c.total + n.added
      FROM (SELECT kind, count(*) AS added FROM added_rows GROUP BY kind) n WHERE c.kind = n.kind;
      RETURN NULL;
    END $$`,
    `CREATE FUNCTION address_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE address_counts c SET total = c.total - n.removed
      FROM (SELECT kind, count(*) AS removed FROM removed_rows GROUP BY kind) n WHERE c.kind = n.kind;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER addresses_count_added AFTER INSERT ON addresses
      REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION address_counts_added()`,
    `CREATE TRIGGER addresses_count_removed AFTER DELETE ON addresses
      REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION address_counts_removed()`
  ),
  "0003_blog": statements(
    `CREATE TABLE blog_posts (
      id uuid PRIMARY KEY,
      slug text NOT NULL UNIQUE,
      title text NOT NULL,
      excerpt text NOT NULL DEFAULT '',
      content text NOT NULL,
      featured_image text NOT NULL DEFAULT '',
      categories text[] NOT NULL DEFAULT '{}',
      tags text[] NOT NULL DEFAULT '{}',
      status text NOT NULL CHECK (status IN ('draft', 'published', 'scheduled', 'archived')),
      published_at timestamptz,
      scheduled_at timestamptz,
      seo_title text NOT NULL DEFAULT '',
      seo_description text NOT NULL DEFAULT '',
      seo_keywords text[] NOT NULL DEFAULT '{}',
      is_sponsored boolean NOT NULL DEFAULT false,
      is_featured boolean NOT NULL DEFAULT false,
      is_editors_choice boolean NOT NULL DEFAULT false,
      is_trending boolean NOT NULL DEFAULT false,
      is_research boolean NOT NULL DEFAULT false,
      is_review boolean NOT NULL DEFAULT false,
      sponsor_info jsonb,
      views integer NOT NULL DEFAULT 0,
      reading_time integer NOT NULL DEFAULT 0,
      author jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      version integer NOT NULL DEFAULT 1,
      CHECK (status <> 'scheduled' OR scheduled_at IS NOT NULL)
    )`,
    `CREATE INDEX blog_posts_status_idx ON blog_posts (status, published_at DESC, created_at DESC)`,
    `CREATE INDEX blog_posts_due_idx ON blog_posts (scheduled_at) WHERE status = 'scheduled'`,
    `CREATE TABLE blog_categories (
      id uuid PRIMARY KEY,
      slug text NOT NULL UNIQUE,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  ),
  // Sign-in mail leaves from here, after the answer (server/platform/mail-outbox.ts).
  "0004_mail_outbox": statements(
    `CREATE TABLE mail_outbox (
      id bigserial PRIMARY KEY,
      recipient text NOT NULL,
      subject text NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_error text,
      failed_at timestamptz
    )`,
    `CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE failed_at IS NULL`,
    `CREATE INDEX one_time_codes_expiry_idx ON one_time_codes (expires_at)`,
    `CREATE INDEX sessions_expiry_idx ON sessions (expires_at)`
  ),
  // The five listing types (community, influencer, business, startup, project) share one table
  // and one moderation state; type-specific fields are `details`, checked by the contract. The counts per (type, status) are kept by statement triggers on insert, delete and update,
  // so a page and its four counts are one round trip at any size, and a bulk change of 500
  // rows runs each trigger once.
  "0005_listings": statements(
    `CREATE TABLE listings (
      id uuid PRIMARY KEY,
      type text NOT NULL CHECK (type IN ('community', 'influencer', 'business', 'startup', 'project')),
      name text NOT NULL,
      description text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
      moderation_notes text NOT NULL DEFAULT '',
      details jsonb NOT NULL DEFAULT '{}',
      is_active boolean NOT NULL DEFAULT true,
      submitted_from text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      version integer NOT NULL DEFAULT 1,
      search_text text GENERATED ALWAYS AS (lower(name || ' ' || description)) STORED
    )`,
    `CREATE INDEX listings_search_idx ON listings USING gin (search_text gin_trgm_ops)`,
    `CREATE INDEX listings_queue_idx ON listings (type, status, created_at DESC, id)`,
    `CREATE INDEX listings_type_idx ON listings (type, created_at DESC, id)`,
    `CREATE TABLE listing_counts (
      type text NOT NULL,
      status text NOT NULL,
      total bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (type, status)
    )`,
    `INSERT INTO listing_counts (type, status)
      SELECT type, status FROM unnest(ARRAY['community', 'influencer', 'business', 'startup', 'project']) AS type
      CROSS JOIN unnest(ARRAY['pending', 'approved', 'rejected']) AS status`,
    `CREATE FUNCTION listing_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE listing_counts c SET total = c.total + n.added
      FROM (SELECT type, status, count(*) AS added FROM added_rows GROUP BY type, status) n
      WHERE c.type = n.type AND c.status = n.status;
      RETURN NULL;
    END $$`,
    `CREATE FUNCTION listing_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE listing_counts c SET total = c.total - n.removed
      FROM (SELECT type, status, count(*) AS removed FROM removed_rows GROUP BY type, status) n
      WHERE c.type = n.type AND c.status = n.status;
      RETURN NULL;
    END $$`,
    `CREATE FUNCTION listing_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE listing_counts c SET total = c.total + d.delta
      FROM (SELECT type, status, sum(delta) AS delta FROM (
              SELECT type, status, -1 AS delta FROM old_rows
              UNION ALL
              SELECT type, status, 1 AS delta FROM new_rows) AS moves
            GROUP BY type, status) d
      WHERE c.type = d.type AND c.status = d.status AND d.delta <> 0;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER listings_count_added AFTER INSERT ON listings
      REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_added()`,
    `CREATE TRIGGER listings_count_removed AFTER DELETE ON listings
      REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_removed()`,
    `CREATE TRIGGER listings_count_moved AFTER UPDATE ON listings
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_moved()`
  ),
  // Events and hackathons are listings too: moderated by the same rules, counted the same way.
  "0006_events": statements(
    `ALTER TABLE listings DROP CONSTRAINT listings_type_check`,
    `ALTER TABLE listings ADD CONSTRAINT listings_type_check
      CHECK (type IN ('community', 'influencer', 'business', 'startup', 'project', 'event', 'hackathon'))`,
    `INSERT INTO listing_counts (type, status)
      SELECT type, status FROM unnest(ARRAY['event', 'hackathon']) AS type
      CROSS JOIN unnest(ARRAY['pending', 'approved', 'rejected']) AS status`
  ),
  // Scam reports, and their counts per (status, type, priority), kept by statement triggers:
  // the queue's cards, and the total of any filter without a search, are sums over 96 rows,
  // so a page and its counts are one round trip at any size.
  "0007_scam_reports": statements(
    `CREATE TABLE scam_reports (
      id uuid PRIMARY KEY,
      scam_type text NOT NULL CHECK (scam_type IN ('fake_project', 'phishing', 'suspicious_wallet', 'fake_giveaway', 'impersonation', 'other')),
      description text NOT NULL,
      evidence text NOT NULL DEFAULT '',
      wallet_address text NOT NULL DEFAULT '',
      reporter_contact text NOT NULL DEFAULT '',
      ip_address text NOT NULL DEFAULT '',
      status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'under_review', 'resolved', 'dismissed')),
      priority text NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
      admin_notes text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      version integer NOT NULL DEFAULT 1,
      search_text text GENERATED ALWAYS AS (lower(description || ' ' || wallet_address || ' ' || reporter_contact)) STORED
    )`,
    `CREATE INDEX scam_reports_search_idx ON scam_reports USING gin (search_text gin_trgm_ops)`,
    `CREATE INDEX scam_reports_queue_idx ON scam_reports (created_at DESC, id DESC)`,
    `CREATE INDEX scam_reports_status_idx ON scam_reports (status, created_at DESC, id DESC)`,
    `CREATE INDEX scam_reports_type_idx ON scam_reports (scam_type, created_at DESC, id DESC)`,
    `CREATE INDEX scam_reports_priority_idx ON scam_reports (priority, created_at DESC, id DESC)`,
    `CREATE INDEX scam_reports_status_priority_idx ON scam_reports (status, priority, created_at DESC, id DESC)`,
    `CREATE TABLE scam_report_counts (
      status text NOT NULL,
      scam_type text NOT NULL,
      priority text NOT NULL,
      total bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (status, scam_type, priority)
    )`,
    `INSERT INTO scam_report_counts (status, scam_type, priority)
      SELECT s, t, p
      FROM unnest(ARRAY['new', 'under_review', 'resolved', 'dismissed']) AS s,
           unnest(ARRAY['fake_project', 'phishing', 'suspicious_wallet', 'fake_giveaway', 'impersonation', 'other']) AS t,
           unnest(ARRAY['low', 'normal', 'high', 'urgent']) AS p`,
    `CREATE FUNCTION scam_report_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE scam_report_counts c SET total = c.total + d.delta
      FROM (SELECT status, scam_type, priority, count(*) AS delta FROM added_rows GROUP BY 1, 2, 3) d
      WHERE (c.status, c.scam_type, c.priority) = (d.status, d.scam_type, d.priority);
      RETURN NULL;
    END $$`,
    `CREATE FUNCTION scam_report_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE scam_report_counts c SET total = c.total - d.delta
      FROM (SELECT status, scam_type, priority, count(*) AS delta FROM removed_rows GROUP BY 1, 2, 3) d
      WHERE (c.status, c.scam_type, c.priority) = (d.status, d.scam_type, d.priority);
      RETURN NULL;
    END $$`,
    `CREATE FUNCTION scam_report_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE scam_report_counts c SET total = c.total + d.delta
      FROM (
        SELECT status, scam_type, priority, sum(delta) AS delta FROM (
          SELECT status, scam_type, priority, 1 AS delta FROM added_rows
          UNION ALL SELECT status, scam_type, priority, -1 FROM removed_rows
        ) AS changes GROUP BY 1, 2, 3
      ) d
      WHERE (c.status, c.scam_type, c.priority) = (d.status, d.scam_type, d.priority) AND d.delta <> 0;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER scam_reports_count_added AFTER INSERT ON scam_reports
      REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION scam_report_counts_added()`,
    `CREATE TRIGGER scam_reports_count_removed AFTER DELETE ON scam_reports
      REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION scam_report_counts_removed()`,
    `CREATE TRIGGER scam_reports_count_moved AFTER UPDATE ON scam_reports
      REFERENCING OLD TABLE AS removed_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION scam_report_counts_moved()`
  ),
  // Core-team contacts (searched by name, e-mail and subject) and advertising inquiries, with
  // the inquiries' counts by status kept by statement triggers, like the other queues.
  "0008_contacts_and_inquiries": statements(
    `CREATE TABLE core_team_contacts (
      id uuid PRIMARY KEY,
      contact_name text NOT NULL,
      contact_email text NOT NULL DEFAULT '',
      contact_organization text NOT NULL DEFAULT '',
      contact_role text NOT NULL,
      category text NOT NULL DEFAULT 'Partnership Proposal',
      priority text NOT NULL DEFAULT 'medium' CHECK (priority IN ('low', 'medium', 'high', 'urgent')),
      subject text NOT NULL,
      details text NOT NULL,
      project_name text NOT NULL DEFAULT '',
      project_stage text NOT NULL DEFAULT '',
      pi_integration text NOT NULL DEFAULT '',
      project_website text NOT NULL DEFAULT '',
      status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'in_progress', 'responded', 'resolved', 'closed')),
      submitted_at timestamptz NOT NULL DEFAULT now(),
      responded_at timestamptz,
      resolved_at timestamptz,
      assigned_to text NOT NULL DEFAULT '',
      response text NOT NULL DEFAULT '',
      internal_notes text NOT NULL DEFAULT '',
      follow_up_required boolean NOT NULL DEFAULT false,
      expected_response_time integer NOT NULL DEFAULT 72,
      ip_address text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      version integer NOT NULL DEFAULT 1,
      search_text text GENERATED ALWAYS AS (lower(contact_name || ' ' || contact_email || ' ' || subject)) STORED
    )`,
    `CREATE INDEX core_team_contacts_search_idx ON core_team_contacts USING gin (search_text gin_trgm_ops)`,
    `CREATE INDEX core_team_contacts_queue_idx ON core_team_contacts (submitted_at DESC, id DESC)`,
    `CREATE INDEX core_team_contacts_status_idx ON core_team_contacts (status, submitted_at DESC, id DESC)`,
    `CREATE TABLE advertising_inquiries (
      id uuid PRIMARY KEY,
      company_name text NOT NULL,
      contact_name text NOT NULL,
      email text NOT NULL,
      phone text NOT NULL DEFAULT '',
      website text NOT NULL DEFAULT '',
      industry text NOT NULL,
      budget text NOT NULL DEFAULT '',
      campaign_type text NOT NULL DEFAULT '',
      duration text NOT NULL DEFAULT '',
      selected_plan text NOT NULL DEFAULT '',
      target_audience text NOT NULL DEFAULT '',
      campaign_goals text NOT NULL DEFAULT '',
      additional_info text NOT NULL DEFAULT '',
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'reviewed', 'contacted', 'converted', 'rejected')),
      admin_notes text NOT NULL DEFAULT '',
      payment_id text NOT NULL DEFAULT '',
      txid text NOT NULL DEFAULT '',
      amount double precision,
      ip_address text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      version integer NOT NULL DEFAULT 1,
      search_text text GENERATED ALWAYS AS (lower(company_name || ' ' || contact_name || ' ' || email)) STORED
    )`,
    `CREATE INDEX advertising_inquiries_search_idx ON advertising_inquiries USING gin (search_text gin_trgm_ops)`,
    `CREATE INDEX advertising_inquiries_queue_idx ON advertising_inquiries (created_at DESC, id DESC)`,
    `CREATE INDEX advertising_inquiries_status_idx ON advertising_inquiries (status, created_at DESC, id DESC)`,
    `CREATE TABLE inquiry_counts (
      status text PRIMARY KEY,
      total bigint NOT NULL DEFAULT 0
    )`,
    `INSERT INTO inquiry_counts (status) SELECT unnest(ARRAY['pending', 'paid', 'reviewed', 'contacted', 'converted', 'rejected'])`,
    `CREATE FUNCTION inquiry_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        UPDATE inquiry_counts c SET total = c.total + d.delta FROM (SELECT status, count(*) AS delta FROM added_rows GROUP BY 1) d WHERE c.status = d.status;
      ELSIF TG_OP = 'DELETE' THEN
        UPDATE inquiry_counts c SET total = c.total - d.delta FROM (SELECT status, count(*) AS delta FROM removed_rows GROUP BY 1) d WHERE c.status = d.status;
      ELSE
        UPDATE inquiry_counts c SET total = c.total + d.delta
        FROM (
          SELECT status, sum(delta) AS delta FROM (
            SELECT status, 1 AS delta FROM added_rows UNION ALL SELECT status, -1 FROM removed_rows
          ) AS changes GROUP BY 1
        ) d
        WHERE c.status = d.status AND d.delta <> 0;
      END IF;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER advertising_inquiries_count_added AFTER INSERT ON advertising_inquiries
      REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION inquiry_counts_changed()`,
    `CREATE TRIGGER advertising_inquiries_count_removed AFTER DELETE ON advertising_inquiries
      REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION inquiry_counts_changed()`,
    `CREATE TRIGGER advertising_inquiries_count_moved AFTER UPDATE ON advertising_inquiries
      REFERENCING OLD TABLE AS removed_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION inquiry_counts_changed()`
  ),
  // Admin management (docs/api.md, "Admin management"): allowed addresses, protected data, the
  // site's settings document, the browser of each session, and new records per day for the
  // dashboard, kept by statement triggers like the other counts.
  "0009_admin_management": statements(
    `CREATE TABLE allowed_ips (
      id uuid PRIMARY KEY,
      ip text NOT NULL,
      description text NOT NULL DEFAULT '',
      created_by text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX allowed_ips_ip_key ON allowed_ips (ip)`,
    `CREATE TABLE protected_data (
      id uuid PRIMARY KEY,
      type text NOT NULL,
      key text NOT NULL,
      value text NOT NULL,
      description text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      version integer NOT NULL DEFAULT 1
    )`,
    `CREATE UNIQUE INDEX protected_data_key ON protected_data (type, key)`,
    `CREATE TABLE site_settings (
      id integer PRIMARY KEY CHECK (id = 1),
      document jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      version integer NOT NULL DEFAULT 1
    )`,
    `ALTER TABLE sessions ADD COLUMN user_agent text`,
    `CREATE INDEX sessions_live_idx ON sessions (admin_id, last_seen_at DESC) WHERE revoked_at IS NULL`,
    // One entity name per area, and the action names it (docs/api.md, "Activity log"): the kind
    // of an address and the type of a listing move into the details.
    `UPDATE activity_log SET details = coalesce(details, '{}'::jsonb) || jsonb_build_object('kind', split_part(entity, ':', 2)), entity = 'address'
      WHERE entity LIKE 'address:%'`,
    `UPDATE activity_log SET details = coalesce(details, '{}'::jsonb) || jsonb_build_object('type', split_part(entity, ':', 2)), entity = 'listing'
      WHERE entity LIKE 'listing:%'`,
    `UPDATE activity_log SET entity = 'blog' WHERE entity = 'blog_post'`,
    `UPDATE activity_log SET action = 'session.' || split_part(action, '.', 2) WHERE action LIKE 'auth.%'`,
    // The activity log's filters (docs/api.md, "Activity log"), each newest first.
    `CREATE INDEX activity_log_entity_idx ON activity_log (entity, id DESC)`,
    `CREATE INDEX activity_log_record_idx ON activity_log (entity_id, id DESC)`,
    `CREATE INDEX activity_log_action_idx ON activity_log (action, id DESC)`,
    `CREATE INDEX activity_log_actor_email_idx ON activity_log (actor_email, id DESC)`,
    `DROP INDEX activity_log_actor_idx`,
    // Events per area, kept as they are appended (the log is append-only): the total of the
    // whole log, or of one area, is a read of a few rows at any size.
    `CREATE TABLE activity_counts (entity text PRIMARY KEY, total bigint NOT NULL DEFAULT 0)`,
    `INSERT INTO activity_counts (entity, total) SELECT entity, count(*) FROM activity_log GROUP BY 1`,
    `CREATE FUNCTION activity_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO activity_counts AS c (entity, total) SELECT entity, count(*) FROM added_rows GROUP BY 1
      ON CONFLICT (entity) DO UPDATE SET total = c.total + excluded.total;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER activity_log_count_added AFTER INSERT ON activity_log
      REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_counts_added()`,
    `CREATE TABLE daily_counts (
      day date NOT NULL,
      area text NOT NULL,
      total bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (day, area)
    )`,
    // Records created per UTC day: the area is the trigger's argument, or a listing's type.
    `CREATE FUNCTION daily_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO daily_counts AS c (day, area, total)
        SELECT (created_at AT TIME ZONE 'UTC')::date, TG_ARGV[0], count(*) FROM added_rows GROUP BY 1
      ON CONFLICT (day, area) DO UPDATE SET total = c.total + excluded.total;
      RETURN NULL;
    END $$`,
    `CREATE FUNCTION daily_listing_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO daily_counts AS c (day, area, total)
        SELECT (created_at AT TIME ZONE 'UTC')::date, type, count(*) FROM added_rows GROUP BY 1, 2
      ON CONFLICT (day, area) DO UPDATE SET total = c.total + excluded.total;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER listings_daily_added AFTER INSERT ON listings
      REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION daily_listing_counts_added()`,
    `CREATE TRIGGER blog_posts_daily_added AFTER INSERT ON blog_posts
      REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION daily_counts_added('blog')`,
    `CREATE TRIGGER scam_reports_daily_added AFTER INSERT ON scam_reports
      REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION daily_counts_added('scam-report')`,
    `CREATE TRIGGER core_team_contacts_daily_added AFTER INSERT ON core_team_contacts
      REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION daily_counts_added('contact')`,
    `CREATE TRIGGER advertising_inquiries_daily_added AFTER INSERT ON advertising_inquiries
      REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION daily_counts_added('inquiry')`,
    `INSERT INTO daily_counts (day, area, total)
      SELECT day, area, count(*) FROM (
        SELECT (created_at AT TIME ZONE 'UTC')::date AS day, type AS area FROM listings
        UNION ALL SELECT (created_at AT TIME ZONE 'UTC')::date, 'blog' FROM blog_posts
        UNION ALL SELECT (created_at AT TIME ZONE 'UTC')::date, 'scam-report' FROM scam_reports
        UNION ALL SELECT (created_at AT TIME ZONE 'UTC')::date, 'contact' FROM core_team_contacts
        UNION ALL SELECT (created_at AT TIME ZONE 'UTC')::date, 'inquiry' FROM advertising_inquiries
      ) AS created GROUP BY 1, 2`
  ),
  // An allowed address is a record like the others (server/platform/record-writes.ts): a version
  // and a time of its last change. Existing addresses are at version 1.
  "0010_allowed_ip_versions": statements(
    `ALTER TABLE allowed_ips ADD COLUMN version integer NOT NULL DEFAULT 1`,
    `ALTER TABLE allowed_ips ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`
  ),
  // Record history (docs/architecture.md, "Record history"): the event of a change names the
  // version it produced and the fields it changed, before and after (a create every field, a
  // removal every field it had). A record's content at any version is its latest snapshot at or
  // before it with the changes since applied: snapshots are taken every 100 versions, and here,
  // once, of every record as it is now (its first kept version). A snapshot holds what the write
  // path compares: not the id, version and time of the last change, not search columns and
  // counters, not who submitted from where, never a protected value.
  "0011_record_history": statements(
    `ALTER TABLE activity_log ADD COLUMN version integer`,
    `ALTER TABLE activity_log ADD COLUMN changes jsonb`,
    `ALTER TABLE activity_log ADD COLUMN removed boolean NOT NULL DEFAULT false`,
    `CREATE INDEX activity_log_history_idx ON activity_log (entity, entity_id, version) WHERE version IS NOT NULL`,
    `CREATE TABLE record_snapshots (
      entity text NOT NULL,
      entity_id text NOT NULL,
      version integer NOT NULL,
      content jsonb NOT NULL,
      at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (entity, entity_id, version)
    )`,
    `INSERT INTO record_snapshots (entity, entity_id, version, content, at)
      SELECT 'blog', id::text, version, to_jsonb(t) - 'id' - 'version' - 'updated_at' - 'views', updated_at FROM blog_posts t`,
    `INSERT INTO record_snapshots (entity, entity_id, version, content, at)
      SELECT 'address', id::text, version, to_jsonb(t) - 'id' - 'version' - 'updated_at' - 'search_text', updated_at FROM addresses t`,
    `INSERT INTO record_snapshots (entity, entity_id, version, content, at)
      SELECT 'listing', id::text, version, to_jsonb(t) - 'id' - 'version' - 'updated_at' - 'search_text' - 'submitted_from', updated_at FROM listings t`,
    `INSERT INTO record_snapshots (entity, entity_id, version, content, at)
      SELECT 'scam-report', id::text, version, to_jsonb(t) - 'id' - 'version' - 'updated_at' - 'search_text', updated_at FROM scam_reports t`,
    `INSERT INTO record_snapshots (entity, entity_id, version, content, at)
      SELECT 'contact', id::text, version, to_jsonb(t) - 'id' - 'version' - 'updated_at' - 'search_text' - 'ip_address', updated_at FROM core_team_contacts t`,
    `INSERT INTO record_snapshots (entity, entity_id, version, content, at)
      SELECT 'inquiry', id::text, version, to_jsonb(t) - 'id' - 'version' - 'updated_at' - 'search_text' - 'ip_address', updated_at FROM advertising_inquiries t`,
    `INSERT INTO record_snapshots (entity, entity_id, version, content, at)
      SELECT 'admin', id::text, version, to_jsonb(t) - 'id' - 'version' - 'updated_at', updated_at FROM admins t`,
    `INSERT INTO record_snapshots (entity, entity_id, version, content, at)
      SELECT 'ip', id::text, version, to_jsonb(t) - 'id' - 'version' - 'updated_at', updated_at FROM allowed_ips t`,
    `INSERT INTO record_snapshots (entity, entity_id, version, content, at)
      SELECT 'protected-data', id::text, version, to_jsonb(t) - 'id' - 'version' - 'updated_at' - 'value', updated_at FROM protected_data t`,
    `INSERT INTO record_snapshots (entity, entity_id, version, content, at)
      SELECT 'settings', 'site', version, to_jsonb(t) - 'id' - 'version' - 'updated_at', updated_at FROM site_settings t`
  ),
  // Events per actor, kept as they are appended like the events per area: the log filtered to
  // one admin counts its pages from a few rows however many events they made (docs/api.md,
  // "Activity log"; 10,000,000 events in npm run bench -- history).
  "0012_activity_actor_counts": statements(
    `CREATE TABLE activity_actor_counts (actor_email text PRIMARY KEY, total bigint NOT NULL DEFAULT 0)`,
    `INSERT INTO activity_actor_counts (actor_email, total) SELECT actor_email, count(*) FROM activity_log WHERE actor_email IS NOT NULL GROUP BY 1`,
    `CREATE FUNCTION activity_actor_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO activity_actor_counts AS c (actor_email, total) SELECT actor_email, count(*) FROM added_rows WHERE actor_email IS NOT NULL GROUP BY 1
      ON CONFLICT (actor_email) DO UPDATE SET total = c.total + excluded.total;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER activity_log_actor_count_added AFTER INSERT ON activity_log
      REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_actor_counts_added()`,
    // Removals, newest first: the records of a kind that were deleted (docs/api.md, "Record history").
    `CREATE INDEX activity_log_removed_idx ON activity_log (entity, id DESC) WHERE removed`
  ),
  // Uploaded images live in the database, not on one server's disk, so every server behind a
  // proxy serves them and a backup holds them (docs/architecture.md, "Uploads"). The bytes are
  // kept in chunks so a download is streamed a chunk at a time, a range read from the chunks it
  // covers; images are compressed already, so PostgreSQL is told not to try again (EXTERNAL).
  // Files a server kept in DATA_DIR/uploads before this are moved in at its next start
  // (server/uploads/disk-import.ts), under the same URLs.
  "0013_uploads": statements(
    `CREATE TABLE uploads (
      path text PRIMARY KEY,
      mime text NOT NULL,
      size integer NOT NULL CHECK (size >= 0),
      sha256 text NOT NULL,
      chunk_size integer NOT NULL CHECK (chunk_size > 0),
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE upload_chunks (
      path text NOT NULL REFERENCES uploads (path) ON DELETE CASCADE,
      seq integer NOT NULL,
      bytes bytea NOT NULL,
      PRIMARY KEY (path, seq)
    )`,
    `ALTER TABLE upload_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL`
  ),
  // A code belongs to the sign-in attempts that may type it, and guesses count against the
  // attempt they name, so a stranger's wrong guesses never end the code an admin is typing;
  // browsers an e-mail signed in from keep codes and a day's guesses of their own
  // (docs/security.md, "Sign-in"). Codes live ten minutes: the old table's are simply dropped.
  "0014_sign_in_attempts": statements(
    `DROP TABLE one_time_codes`,
    `CREATE TABLE sign_in_codes (
      id uuid PRIMARY KEY,
      email text NOT NULL,
      channel text NOT NULL,
      code_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`,
    `CREATE INDEX sign_in_codes_channel_idx ON sign_in_codes (email, channel, created_at DESC)`,
    `CREATE INDEX sign_in_codes_expiry_idx ON sign_in_codes (expires_at)`,
    `CREATE TABLE sign_in_attempts (
      token_hash text PRIMARY KEY,
      code_id uuid NOT NULL REFERENCES sign_in_codes (id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('super_admin', 'admin', 'moderator')),
      tries integer NOT NULL DEFAULT 0
    )`,
    `CREATE INDEX sign_in_attempts_code_idx ON sign_in_attempts (code_id)`,
    `CREATE TABLE known_browsers (
      key_hash text NOT NULL,
      email text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (key_hash, email)
    )`,
    `CREATE INDEX known_browsers_expiry_idx ON known_browsers (expires_at)`
  ),
  // Each command's key with its first answer, written in the command's own transaction
  // (server/platform/idempotency.ts; docs/api.md, "Commands, exactly once"). Kept two days.
  "0015_idempotency_keys": statements(
    `CREATE TABLE idempotency_keys (
      scope text NOT NULL,
      key text NOT NULL,
      route text NOT NULL,
      body_length integer NOT NULL,
      body_hash text,
      status integer,
      content_type text,
      body bytea,
      failure text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (scope, key)
    )`,
    `CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`
  ),
  // Passkeys (server/auth/passkeys.ts; docs/security.md, "Passkeys"): each person's WebAuthn
  // credentials, and the ceremonies' challenges, each used once within 5 minutes.
  "0016_passkeys": statements(
    `CREATE TABLE passkeys (
      id uuid PRIMARY KEY,
      admin_id uuid NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
      credential_id text NOT NULL UNIQUE,
      public_key bytea NOT NULL,
      counter bigint NOT NULL DEFAULT 0,
      transports text NOT NULL DEFAULT '',
      name text NOT NULL,
      backed_up boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz
    )`,
    `CREATE INDEX passkeys_admin_idx ON passkeys (admin_id, created_at)`,
    `CREATE TABLE passkey_challenges (
      challenge text PRIMARY KEY,
      admin_id uuid REFERENCES admins (id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('register', 'sign_in')),
      expires_at timestamptz NOT NULL
    )`,
    `CREATE INDEX passkey_challenges_expiry_idx ON passkey_challenges (expires_at)`
  ),
  // The role the session that added a passkey acted with: a passkey signs in with no more than it.
  "0017_passkey_roles": statements(
    `ALTER TABLE passkeys ADD COLUMN role text NOT NULL DEFAULT 'moderator' CHECK (role IN ('super_admin', 'admin', 'moderator'))`
  ),
  // Passkeys required by role (server/auth/second-step.ts; docs/security.md, "Passkeys"): each
  // role's rule; each person's own grace (a new account's, or after a reset: existing accounts
  // have none); recovery codes, hashed; a code sign-in's second step; a session's last passkey use.
  "0018_passkey_rules": statements(
    `CREATE TABLE passkey_rules (
      role text PRIMARY KEY CHECK (role IN ('super_admin', 'admin', 'moderator')),
      required boolean NOT NULL DEFAULT false,
      grace_until timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `ALTER TABLE admins ADD COLUMN passkey_grace_until timestamptz`,
    `ALTER TABLE admins ALTER COLUMN passkey_grace_until SET DEFAULT now() + interval '3 days'`,
    `CREATE TABLE recovery_codes (
      admin_id uuid NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (admin_id, code_hash)
    )`,
    `CREATE TABLE sign_in_steps (
      token_hash text PRIMARY KEY,
      admin_id uuid NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('super_admin', 'admin', 'moderator')),
      tries integer NOT NULL DEFAULT 0,
      expires_at timestamptz NOT NULL
    )`,
    `CREATE INDEX sign_in_steps_expiry_idx ON sign_in_steps (expires_at)`,
    `ALTER TABLE passkey_challenges DROP CONSTRAINT passkey_challenges_purpose_check`,
    `ALTER TABLE passkey_challenges ADD CONSTRAINT passkey_challenges_purpose_check CHECK (purpose IN ('register', 'sign_in', 'second_step'))`,
    `ALTER TABLE sessions ADD COLUMN last_passkey_at timestamptz`
  ),
  // Confirming it's you again (server/auth/confirm.ts; docs/security.md, "Confirm what matters"):
  // when a session last did with a code by e-mail (its sign-in, or a confirmation), and the codes
  // a session asked for to confirm, one per session.
  "0019_confirmations": statements(
    `ALTER TABLE sessions ADD COLUMN confirmed_at timestamptz`,
    `CREATE TABLE confirm_codes (
      session_id uuid PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      tries integer NOT NULL DEFAULT 0,
      expires_at timestamptz NOT NULL
    )`,
    `ALTER TABLE passkey_challenges DROP CONSTRAINT passkey_challenges_purpose_check`,
    `ALTER TABLE passkey_challenges ADD CONSTRAINT passkey_challenges_purpose_check CHECK (purpose IN ('register', 'sign_in', 'second_step', 'confirm'))`
  ),
  // The triage desk (docs/api.md, "The triage desk"): who handles a record, until when it sleeps,
  // what it duplicates; and `triage_items`, one row per record waiting for a decision, kept by row
  // triggers on the four tables, so the desk is one indexed table whatever the areas' sizes. Its
  // counts per (area, priority, owner) are kept by statement triggers, like the queues' counts.
  "0020_triage": statements(
    ...["listings", "scam_reports", "core_team_contacts", "advertising_inquiries"].map(
      (table) => `ALTER TABLE ${table} ADD COLUMN owner_id uuid, ADD COLUMN snoozed_until timestamptz, ADD COLUMN duplicate_of uuid`
    ),
    `CREATE TABLE triage_items (
      area text NOT NULL,
      id uuid NOT NULL,
      created_at timestamptz NOT NULL,
      priority smallint,
      owner_id uuid,
      snoozed_until timestamptz,
      PRIMARY KEY (area, id)
    )`,
    `CREATE INDEX triage_items_queue_idx ON triage_items (created_at, id)`,
    `CREATE INDEX triage_items_area_idx ON triage_items (area, created_at, id)`,
    `CREATE INDEX triage_items_priority_idx ON triage_items (priority, created_at, id)`,
    `CREATE INDEX triage_items_area_priority_idx ON triage_items (area, priority, created_at, id)`,
    `CREATE INDEX triage_items_owner_idx ON triage_items (owner_id, created_at, id)`,
    `CREATE INDEX triage_items_snoozed_idx ON triage_items (snoozed_until, id) WHERE snoozed_until IS NOT NULL`,
    // Related reports: the same wallet, or the same address in the evidence.
    `CREATE INDEX scam_reports_wallet_idx ON scam_reports (wallet_address) WHERE wallet_address <> ''`,
    `CREATE INDEX scam_reports_evidence_idx ON scam_reports USING gin (evidence gin_trgm_ops)`,
    // A record's place on the desk: there while its status waits (the trigger's second argument), gone after.
    `CREATE FUNCTION triage_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      fields jsonb;
    BEGIN
      IF TG_OP = 'DELETE' THEN
        DELETE FROM triage_items WHERE area = TG_ARGV[0] AND id = OLD.id;
        RETURN NULL;
      END IF;
      IF NOT (NEW.status = ANY (TG_ARGV[1]::text[])) THEN
        IF TG_OP = 'UPDATE' THEN
          DELETE FROM triage_items WHERE area = TG_ARGV[0] AND id = NEW.id;
        END IF;
        RETURN NULL;
      END IF;
      fields := to_jsonb(NEW);
      INSERT INTO triage_items AS t (area, id, created_at, priority, owner_id, snoozed_until)
      VALUES (
        TG_ARGV[0], NEW.id, coalesce((fields->>'submitted_at')::timestamptz, NEW.created_at),
        CASE fields->>'priority' WHEN 'urgent' THEN 3 WHEN 'high' THEN 2 WHEN 'normal' THEN 1 WHEN 'medium' THEN 1 WHEN 'low' THEN 0 END,
        NEW.owner_id, NEW.snoozed_until
      )
      ON CONFLICT (area, id) DO UPDATE SET created_at = excluded.created_at, priority = excluded.priority,
        owner_id = excluded.owner_id, snoozed_until = excluded.snoozed_until
      WHERE (t.created_at, t.priority, t.owner_id, t.snoozed_until)
        IS DISTINCT FROM (excluded.created_at, excluded.priority, excluded.owner_id, excluded.snoozed_until);
      RETURN NULL;
    END $$`,
    ...(
      [
        ["listings", "listing", "{pending}", "status, owner_id, snoozed_until"],
        ["scam_reports", "scam-report", "{new,under_review}", "status, priority, owner_id, snoozed_until"],
        ["core_team_contacts", "contact", "{new}", "status, priority, owner_id, snoozed_until, submitted_at"],
        ["advertising_inquiries", "inquiry", "{pending,paid}", "status, owner_id, snoozed_until"]
      ] as const
    ).flatMap(([table, area, waiting, watched]) => [
      `CREATE TRIGGER ${table}_triage_kept AFTER INSERT OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION triage_sync('${area}', '${waiting}')`,
      `CREATE TRIGGER ${table}_triage_moved AFTER UPDATE OF ${watched} ON ${table}
        FOR EACH ROW EXECUTE FUNCTION triage_sync('${area}', '${waiting}')`,
      `INSERT INTO triage_items (area, id, created_at, priority, owner_id, snoozed_until)
        SELECT '${area}', id, ${table === "core_team_contacts" ? "submitted_at" : "created_at"},
          ${table === "scam_reports" || table === "core_team_contacts" ? "CASE priority WHEN 'urgent' THEN 3 WHEN 'high' THEN 2 WHEN 'low' THEN 0 ELSE 1 END" : "NULL::smallint"},
          owner_id, snoozed_until
        FROM ${table} WHERE status = ANY ('${waiting}'::text[])`
    ]),
    // The desk's counts: a sum over a few rows for any filter (an owner is '' for nobody, a priority -1 for none).
    `CREATE TABLE triage_counts (
      area text NOT NULL,
      priority smallint NOT NULL,
      owner text NOT NULL,
      total bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (area, priority, owner)
    )`,
    `INSERT INTO triage_counts (area, priority, owner, total)
      SELECT area, coalesce(priority, -1), coalesce(owner_id::text, ''), count(*) FROM triage_items GROUP BY 1, 2, 3`,
    `CREATE FUNCTION triage_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO triage_counts AS c (area, priority, owner, total)
      SELECT area, priority, owner, sum(delta) FROM (
        SELECT area, coalesce(priority, -1) AS priority, coalesce(owner_id::text, '') AS owner, 1 AS delta FROM added_rows
        UNION ALL
        SELECT area, coalesce(priority, -1), coalesce(owner_id::text, ''), -1 FROM removed_rows
      ) AS changes GROUP BY 1, 2, 3 HAVING sum(delta) <> 0
      ON CONFLICT (area, priority, owner) DO UPDATE SET total = c.total + excluded.total;
      RETURN NULL;
    END $$`,
    `CREATE FUNCTION triage_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO triage_counts AS c (area, priority, owner, total)
      SELECT area, coalesce(priority, -1), coalesce(owner_id::text, ''), count(*) FROM added_rows GROUP BY 1, 2, 3
      ON CONFLICT (area, priority, owner) DO UPDATE SET total = c.total + excluded.total;
      RETURN NULL;
    END $$`,
    `CREATE FUNCTION triage_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE triage_counts c SET total = c.total - d.delta
      FROM (SELECT area, coalesce(priority, -1) AS priority, coalesce(owner_id::text, '') AS owner, count(*) AS delta FROM removed_rows GROUP BY 1, 2, 3) d
      WHERE (c.area, c.priority, c.owner) = (d.area, d.priority, d.owner);
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER triage_items_count_added AFTER INSERT ON triage_items
      REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION triage_counts_added()`,
    `CREATE TRIGGER triage_items_count_removed AFTER DELETE ON triage_items
      REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION triage_counts_removed()`,
    `CREATE TRIGGER triage_items_count_moved AFTER UPDATE ON triage_items
      REFERENCING OLD TABLE AS removed_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION triage_counts_changed()`
  ),
  // A command whose answer holds a record's secret keeps which record it named, never the answer
  // (server/platform/kept-outcomes.ts; docs/api.md, "Commands, exactly once"). The protected-data
  // answers kept before, each holding a value in clear, go: a repeat of one then runs again and is
  // refused as a copy is (the type and key are taken, the version moved on).
  "0021_kept_outcomes": statements(
    `ALTER TABLE idempotency_keys ADD COLUMN record_id text`,
    `CREATE INDEX idempotency_keys_record_idx ON idempotency_keys (record_id) WHERE record_id IS NOT NULL`,
    `DELETE FROM idempotency_keys WHERE route LIKE 'POST /api/admin/protected-data%' OR route LIKE 'PUT /api/admin/protected-data/%'`
  ),
  // Passkeys and sessions (docs/security.md, "Confirm what matters", "Required by role"): the session
  // that added a passkey (it never confirms that session), how a session was signed in (a new rule
  // ends the code-only ones), and a code sign-in's confirmation only where the account had no passkey.
  "0022_passkey_sessions": statements(
    `ALTER TABLE passkeys ADD COLUMN session_id uuid REFERENCES sessions (id) ON DELETE SET NULL`,
    `ALTER TABLE sessions ADD COLUMN sign_in_method text NOT NULL DEFAULT 'code'`,
    `UPDATE sessions SET confirmed_at = NULL WHERE admin_id IN (SELECT admin_id FROM passkeys)`
  ),
  // 0022 labelled every session open then `code`, so one signed in with a code and a recovery code
  // (no passkey use on the session) counted as code-only and a new rule ended it (docs/security.md,
  // "Required by role"); those opened with a passkey were labelled code-only too. The sign-in's log
  // says how each was made (`details.method`): each session takes its label from there.
  "0023_sign_in_method_backfill": statements(
    `UPDATE sessions s SET sign_in_method = l.details ->> 'method'
      FROM activity_log l
      WHERE l.action = 'session.sign_in' AND l.entity_id = s.id::text AND s.sign_in_method = 'code'
        AND l.details ->> 'method' IN ('passkey', 'code+passkey', 'code+recovery')`
  )
}

const run = Migrator.make({})

/** Applies every pending migration; already applied ones are skipped, so a second run is a no-op. */
export const migrate = run({ loader: Migrator.fromRecord(migrations), table: "schema_migrations" })
