import { Effect } from "effect"
import * as Migrator from "effect/sql/Migrator"
import { SqlClient } from "effect/sql/SqlClient"

/** Runs DDL statements one by one (the extended protocol takes one statement at a time). */
const statements = (...ddl: ReadonlyArray<string>) =>
  Effect.gen(function*() {
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
  )
}

const run = Migrator.make({})

/** Applies every pending migration; already applied ones are skipped, so a second run is a no-op. */
export const migrate = run({ loader: Migrator.fromRecord(migrations), table: "schema_migrations" })
