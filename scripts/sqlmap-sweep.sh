#!/usr/bin/env bash
# SQL injection sweep with sqlmap against the built server, signed in (docs/security.md, "Proof").
#
# A manual / CI-optional check: it takes several minutes, so it is not part of `npm test`.
#   npm run security:sqlmap                      # the recorded sweep (level 3, risk 2)
#   SQLMAP_LEVEL=1 SQLMAP_RISK=1 npm run security:sqlmap   # a quicker pass
#
# What it does: starts a throwaway PostgreSQL cluster and the built server (dist/) on free
# loopback ports with demo data, signs in as the demo poster, provider and admin (the admin with
# its authenticator app: admin powers need two factors, decision 068), then runs
# sqlmap in batch mode against every route that takes input. It exits non-zero when sqlmap
# reports an injectable parameter, when the server answered an injected request with a 5xx
# (a 500 on client input is a bug too), or when a rate limit answered 429 (the sweep would then
# not have reached the database, so "nothing found" would prove nothing).
#
# Why PostgreSQL and not the embedded PGlite: it is the production database, and sqlmap's
# PostgreSQL payloads (pg_sleep, stacked queries) should meet the real thing. And the rate limits
# (counters in the rate_limits table) would otherwise stop sqlmap after a few requests; in this
# throwaway database a trigger pins every counter to 1. Rate limits have their own tests.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

LEVEL="${SQLMAP_LEVEL:-3}"
RISK="${SQLMAP_RISK:-2}"
TECHNIQUE="${SQLMAP_TECHNIQUE:-BEUST}"
DEMO_PASSWORD="demo-harbor-lantern"
# The demo admin signs in with its authenticator app as well (admins need two factors: decision 068).
DEMO_ADMIN_TOTP_SECRET="$(sed -n 's/^export const DEMO_ADMIN_TOTP_SECRET = "\([A-Z2-7]*\)";$/\1/p' src/server/seed/demo.ts)"

log() { printf '[sweep] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 2; }
[ -n "$DEMO_ADMIN_TOTP_SECRET" ] || die "the demo admin's authenticator key was not found in src/server/seed/demo.ts"
is_root() { [ "$(id -u)" = "0" ]; }

apt_install() {
  is_root || die "$1 is missing; install it (Debian: apt-get install -y $1) or run as root"
  log "installing $1 with apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get install -y "$1" >/dev/null 2>&1 ||
    { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y "$1" >/dev/null; }
}

command -v sqlmap >/dev/null || apt_install sqlmap
command -v curl >/dev/null || apt_install curl

find_pg_bin() {
  if command -v initdb >/dev/null; then dirname "$(command -v initdb)"; return; fi
  # Debian keeps the server binaries out of PATH.
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}
PG_BIN="$(find_pg_bin)"
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
  apt_install postgresql
  PG_BIN="$(find_pg_bin)"
fi
[ -x "$PG_BIN/initdb" ] || die "PostgreSQL's initdb was not found"

if [ ! -f dist/server/server/main.js ]; then
  log "dist/ is missing: npm run build"
  npm run build >/dev/null
fi

free_port() {
  node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

WORK="$(mktemp -d /tmp/errandly-sqlmap.XXXXXX)"
chmod 755 "$WORK"
PGDATA="$WORK/pg"
SERVER_LOG="$WORK/server.log"
REPORT="$WORK/sqlmap"
mkdir -p "$REPORT" "$WORK/data"
SERVER_PID=""

as_pg() {
  # initdb and postgres refuse to run as root.
  if is_root; then runuser -u postgres -- "$@"; else "$@"; fi
}

cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  if [ -f "$PGDATA/postmaster.pid" ]; then as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -m immediate stop >/dev/null 2>&1 || true; fi
  rm -rf "$PGDATA" "$WORK/data"
  log "logs kept in $WORK (server.log, sqlmap/)"
}
trap cleanup EXIT

START_SECONDS=$SECONDS

# --- a throwaway PostgreSQL cluster -------------------------------------------------------------
PG_PORT="$(free_port)"
mkdir -p "$PGDATA"
if is_root; then chown postgres "$PGDATA"; fi
as_pg "$PG_BIN/initdb" -D "$PGDATA" -U errandly --auth=trust -E UTF8 >"$WORK/initdb.log" 2>&1 || die "initdb failed: $WORK/initdb.log"
as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$PGDATA/postgres.log" -w \
  -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $PGDATA -c fsync=off" start >/dev/null || die "PostgreSQL did not start"
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U errandly)
"${PSQL[@]}" -d postgres -c "create database errandly" >/dev/null

# --- the built server -------------------------------------------------------------------------------
# In development mode: the sweep signs in with the demo logins, which a production-mode server refuses
# (docs/decisions/066-demo-data-on-loopback-only.md); the SQL it sends is the same in either mode.
PORT="$(free_port)"
BASE="http://127.0.0.1:$PORT"
NODE_ENV=development HOST=127.0.0.1 PORT="$PORT" PUBLIC_URL="$BASE" \
  DATA_DIR="$WORK/data" STORAGE_DIR="$WORK/data/objects" DATABASE_URL="postgres://errandly@127.0.0.1:$PG_PORT/errandly" SEED_DEMO=true LOG_LEVEL=warn \
  SECRETS_KEY="$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))')" \
  node dist/server/server/main.js >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 120); do
  curl -fsS "$BASE/api/health" >/dev/null 2>&1 && break
  kill -0 "$SERVER_PID" 2>/dev/null || die "the server exited: $SERVER_LOG"
  sleep 0.5
done
curl -fsS "$BASE/api/health" >/dev/null || die "the server did not answer /api/health"

"${PSQL[@]}" -d errandly >/dev/null <<'SQL'
create function sweep_no_rate_limit() returns trigger language plpgsql as $$
begin new.count := 1; return new; end $$;
create trigger sweep_no_rate_limit before insert or update on rate_limits
  for each row execute function sweep_no_rate_limit();
SQL

# --- sessions and fixtures ---------------------------------------------------------------------------
api() { # api COOKIE METHOD PATH [JSON]
  local args=(-fsS -X "$2" -H "Origin: $BASE")
  [ -n "$1" ] && args+=(-H "Cookie: errandly_session=$1")
  [ $# -ge 4 ] && args+=(-H "content-type: application/json" --data "$4")
  curl "${args[@]}" "$BASE$3"
}
json() { node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(eval(`(${process.argv[1]})`)(JSON.parse(s))));' "$1"; }
# The authenticator app's current code for a base32 key (otplib, as the server checks it).
totp_code() { node --input-type=module -e 'import { generateSync } from "otplib"; console.log(generateSync({ secret: process.argv[1] }));' "$1"; }
sign_in() { # sign_in NAME [AUTHENTICATOR_KEY]: the session token; the second step when the server asks for it (202)
  local jar="$WORK/$1.jar" status
  status="$(curl -sS -o "$WORK/$1.login" -w '%{http_code}' -c "$jar" -H "Origin: $BASE" -H "content-type: application/json" \
    --data "{\"email\":\"$1@errandly.test\",\"password\":\"$DEMO_PASSWORD\"}" "$BASE/api/auth/login")"
  if [ "$status" = "202" ]; then
    [ -n "${2:-}" ] || die "$1 was asked for a second factor"
    curl -fsS -b "$jar" -c "$jar" -H "Origin: $BASE" -H "content-type: application/json" \
      --data "{\"code\":\"$(totp_code "$2")\"}" "$BASE/api/auth/second-factor" >/dev/null || die "$1's second step failed"
  elif [ "$status" != "200" ]; then
    die "$1's sign-in answered $status: $(head -c 200 "$WORK/$1.login")"
  fi
  awk '$6 == "errandly_session" { print $7 }' "$jar"
}
POSTER="$(sign_in poster)"
PROVIDER="$(sign_in provider)"
ADMIN="$(sign_in admin "$DEMO_ADMIN_TOTP_SECRET")"
# The admin targets need admin powers: a session without the second factor would be refused (403)
# and sqlmap would compare refusals.
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: errandly_session=$ADMIN" "$BASE/api/admin/contact-messages")" = "200" ] ||
  die "the admin session has no admin powers (is it two-factor?)"
[ -n "$POSTER" ] && [ -n "$PROVIDER" ] && [ -n "$ADMIN" ] || die "demo sign-in failed"

PROVIDER_ID="$(api "$PROVIDER" GET /api/auth/user | json 'u => u.id')"
OPEN_TASK="$(api "$POSTER" GET /api/tasks/my-tasks | json 'ts => ts.find((t) => t.status === "open").id')"
CHAT_TASK="$(api "$POSTER" GET /api/tasks/my-tasks | json 'ts => ts.filter((t) => t.status === "open")[1].id')"
# The provider claims one task so the poster has a chat to write in.
api "$PROVIDER" PATCH "/api/tasks/$CHAT_TASK/claim" >/dev/null
api "$POSTER" POST /api/messages "{\"taskId\":\"$CHAT_TASK\",\"content\":\"hello\"}" >/dev/null
log "server $BASE (pid $SERVER_PID), PostgreSQL 127.0.0.1:$PG_PORT; open task $OPEN_TASK, chat task $CHAT_TASK"

# --- the sweep -------------------------------------------------------------------------------------
SQLMAP_VERSION="$(sqlmap --version 2>/dev/null | grep -Eo '[0-9]+\.[0-9]+[0-9.#a-z]*' | head -n 1)"
log "sqlmap $SQLMAP_VERSION, --level=$LEVEL --risk=$RISK --technique=$TECHNIQUE"

FAILED=0
SUMMARY=()
# Only the two task-search targets test the headers (level 3: the session cookie, User-Agent,
# Referer): no route reads the last two, and every route looks the cookie up the same way.
SKIP_HEADERS="--skip=errandly_session,user-agent,referer"

sweep() { # sweep NAME COOKIE SQLMAP-ARGS...
  local name="$1" cookie="$2"
  shift 2
  # SQLMAP_TARGETS="tasks-open login" runs only those (for a quick look at one surface).
  if [ -n "${SQLMAP_TARGETS:-}" ] && [[ " $SQLMAP_TARGETS " != *" $name "* ]]; then return; fi
  local out="$REPORT/$name"
  local started=$SECONDS
  # The unaltered request must succeed, or sqlmap would only be comparing error answers.
  local url="" method="GET" data="" i
  for ((i = 1; i <= $#; i++)); do
    case "${!i}" in
      -u) ((i++)); url="${!i//\*/}" ;;
      --method=*) method="${!i#--method=}" ;;
      --data=*) data="${!i#--data=}" ;;
    esac
  done
  local status
  status="$(curl -s -o "$out.baseline" -w '%{http_code}' -X "$method" -H "Origin: $BASE" \
    ${cookie:+-H "Cookie: errandly_session=$cookie"} ${data:+-H "content-type: application/json" --data "$data"} "$url")"
  if [[ "$status" != 2* ]]; then
    FAILED=1
    SUMMARY+=("$(printf '%-22s %-13s baseline answered %s: %s' "$name" "BASELINE" "$status" "$(head -c 200 "$out.baseline")")")
    log "$name: the baseline request answered $status"
    return
  fi
  local args=(--batch --disable-coloring --flush-session --output-dir="$out" --level="$LEVEL" --risk="$RISK"
    --dbms=PostgreSQL --technique="$TECHNIQUE" --headers="Origin: $BASE" --drop-set-cookie --timeout=15 --retries=1)
  [ -n "$cookie" ] && args+=(--cookie="errandly_session=$cookie")
  sqlmap "${args[@]}" "$@" >"$out.log" 2>&1 || true
  local verdict="clean" codes
  # sqlmap ends with "HTTP error codes detected during run:" and then "400 (Bad Request) - 12 times, ...".
  codes="$(grep -A1 'HTTP error codes detected during run' "$out.log" | tail -n 1 || true)"
  if grep -q "identified the following injection point" "$out.log" ||
    [ -s "$out/127.0.0.1/log" ]; then
    verdict="INJECTABLE"
    FAILED=1
  elif grep -Eq '(^|, )5[0-9]{2} \(' <<<"$codes"; then
    verdict="SERVER-ERROR"
    FAILED=1
  elif grep -Eq '(^|, )429 \(' <<<"$codes"; then
    verdict="RATE-LIMITED"
    FAILED=1
  elif ! grep -Eq "do not appear to be injectable|does not seem to be injectable" "$out.log"; then
    verdict="INCOMPLETE"
    FAILED=1
  fi
  SUMMARY+=("$(printf '%-22s %-13s %4ss  %s' "$name" "$verdict" "$((SECONDS - started))" "${codes:-no HTTP errors}")")
  log "$name: $verdict ($((SECONDS - started)) s)${codes:+ [$codes]}"
}

# Public task search: every filter (sort=distance is the only one that reads lat/lon).
sweep tasks-open "$POSTER" -u "$BASE/api/tasks/open?search=walk&category=errands&sort=newest&page=1&pageSize=30"
sweep tasks-open-distance "$POSTER" -u "$BASE/api/tasks/open?search=dog&sort=distance&lat=38.97841&lon=-76.49223&page=1"
# Path parameters, marked with *.
sweep task-detail "$POSTER" -u "$BASE/api/tasks/${OPEN_TASK}*"
sweep task-escrow "$POSTER" -u "$BASE/api/tasks/${CHAT_TASK}*/escrow"
sweep messages-list "$POSTER" -u "$BASE/api/messages/${CHAT_TASK}*"
sweep reviews-of-user "$POSTER" -u "$BASE/api/reviews/user/${PROVIDER_ID}*"
# JSON bodies: sqlmap tests each value.
sweep task-create "$POSTER" -u "$BASE/api/tasks" --method=POST \
  --data='{"title":"Walk the dog","description":"A 45-minute walk","category":"pet","budget":25,"urgency":"standard","location":"58 West St","city":"Annapolis","state":"MD","lat":38.97841,"lon":-76.49223}' \
  "$SKIP_HEADERS"
sweep messages-send "$POSTER" -u "$BASE/api/messages" --method=POST \
  --data="{\"taskId\":\"$CHAT_TASK\",\"content\":\"On my way\"}" "$SKIP_HEADERS"
sweep contact "" -u "$BASE/api/contact" --method=POST \
  --data='{"name":"Sam Doe","email":"sam@example.test","subject":"Question","message":"Do you cover Towson?"}' "$SKIP_HEADERS"
APPOINTMENT_AT="$(node -e 'console.log(new Date(new Date(Date.now() + 3 * 86_400_000).setUTCHours(15, 0, 0, 0)).toISOString())')"
sweep appointments "" -u "$BASE/api/appointments" --method=POST \
  --data="{\"name\":\"Sam Doe\",\"email\":\"sam@example.test\",\"phone\":\"410-555-0100\",\"reason\":\"I would like to talk about becoming a provider\",\"preferContact\":\"call\",\"appointmentDate\":\"$APPOINTMENT_AT\"}" \
  "$SKIP_HEADERS"
sweep felix-ask "$POSTER" -u "$BASE/api/ask-felix" --method=POST \
  --data='{"message":"What should I pay to walk my dog?","mode":"recommend","context":{"title":"Walk the dog","category":"pet","city":"Annapolis","state":"MD","location":"58 West St","urgency":"standard","stops":[]}}' \
  "$SKIP_HEADERS"
# Valid credentials, so a payload that breaks the lookup shows as a 401 against a 200.
sweep login "" -u "$BASE/api/auth/login" --method=POST \
  --data="{\"email\":\"poster@errandly.test\",\"password\":\"$DEMO_PASSWORD\"}" --ignore-code=401 "$SKIP_HEADERS"
sweep provider-profile "$PROVIDER" -u "$BASE/api/provider/profile" --method=PATCH \
  --data='{"bio":"Reliable and on time","hourlyRate":30}' "$SKIP_HEADERS"
# The providers directory takes no parameters (filters run in the browser); these prove extra ones are ignored.
sweep providers "$POSTER" -u "$BASE/api/providers?search=devon&serviceType=errands&city=Annapolis&sort=rating" "$SKIP_HEADERS"
# Admin lists, with the admin session.
sweep admin-contact "$ADMIN" -u "$BASE/api/admin/contact-messages?page=1&pageSize=24" "$SKIP_HEADERS"
sweep admin-appointments "$ADMIN" -u "$BASE/api/admin/appointments?page=1&pageSize=24" "$SKIP_HEADERS"
sweep admin-applications "$ADMIN" -u "$BASE/api/admin/applications/pending?status=all" "$SKIP_HEADERS"

ELAPSED=$((SECONDS - START_SECONDS))
SERVER_ERRORS="$(grep -c '"level":50' "$SERVER_LOG" || true)"
echo
echo "sqlmap $SQLMAP_VERSION sweep of $BASE: --level=$LEVEL --risk=$RISK --technique=$TECHNIQUE --dbms=PostgreSQL"
printf '%s\n' "${SUMMARY[@]}"
echo "server error log lines: $SERVER_ERRORS; total time: $((ELAPSED / 60)) min $((ELAPSED % 60)) s"
if [ "$SERVER_ERRORS" != "0" ]; then
  FAILED=1
  grep '"level":50' "$SERVER_LOG" | head -n 5 >&2
fi
if [ "$FAILED" != "0" ]; then
  echo "FAILED: see $REPORT/<target>.log"
  exit 1
fi
echo "OK: sqlmap found no injectable parameter"
