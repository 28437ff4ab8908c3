# shellcheck shell=bash
# Settings and helpers of ./jobmon, sourced by deploy/local/jobmon.sh. See deploy/README.md.

# ---------------------------------------------------------------------------------------------
# Settings (every one can be overridden from the environment)
# ---------------------------------------------------------------------------------------------
STATE_DIR="${JOBMON_STATE_DIR:-$ROOT/.jobmon}"
case "$STATE_DIR" in /*) ;; *) STATE_DIR="$PWD/$STATE_DIR" ;; esac
LOG_DIR="$STATE_DIR/logs"
RUN_DIR="$STATE_DIR/run"

PG_PORT="${JOBMON_PG_PORT:-15432}"
KAFKA_PORT="${JOBMON_KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${JOBMON_KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}"
KEYCLOAK_PORT="${JOBMON_KEYCLOAK_PORT:-8180}"
PORT_BASE="${JOBMON_PORT_BASE:-8080}"          # gateway; the other services follow at +1..+5
# Each service's management interface (/q/health, /q/metrics, /q/openapi): probes and Prometheus only.
MGMT_PORT_BASE="${JOBMON_MANAGEMENT_PORT_BASE:-$((PORT_BASE + 1000))}"
BIND_HOST="${JOBMON_BIND_HOST:-127.0.0.1}"     # where the services listen
UP_TIMEOUT="${JOBMON_UP_TIMEOUT:-240}"         # seconds per component
STOP_TIMEOUT="${JOBMON_STOP_TIMEOUT:-30}"      # seconds between TERM and KILL
# JVM options for a quick start on a small machine: C1 only starts Keycloak in ~half the time on
# 2 cores (measured 18-20s instead of 31-42s) and keeps the code cache small. Peak speed is not a
# concern of a local stack.
# vertx.disableHttpHeadersValidation: a header with control characters reaches the services' shared filter, which
# answers a 400 problem (Netty would answer an empty 400).
SERVICE_JAVA_OPTS="${JOBMON_SERVICE_JAVA_OPTS:--Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC} -Dvertx.disableHttpHeadersValidation=true"
KAFKA_JAVA_OPTS="${JOBMON_KAFKA_JAVA_OPTS:--Xms128m -Xmx512m -XX:TieredStopAtLevel=1 -XX:+UseG1GC}"
KEYCLOAK_JAVA_OPTS="${JOBMON_KEYCLOAK_JAVA_OPTS:--Xms64m -Xmx512m -XX:TieredStopAtLevel=1}"

# Components started here unless an external one is given.
EXTERNAL_DB="${JOBMON_DB_URL:-}"
EXTERNAL_KAFKA="${JOBMON_KAFKA_BOOTSTRAP:-}"
EXTERNAL_OIDC="${JOBMON_OIDC_URL:-}"
DB_URL="${JOBMON_DB_URL:-postgresql://127.0.0.1:$PG_PORT/jobmon}"
DB_USER="${JOBMON_DB_USER:-jobmon}"
DB_PASSWORD="${JOBMON_DB_PASSWORD:-jobmon}"
KAFKA_BOOTSTRAP="${JOBMON_KAFKA_BOOTSTRAP:-127.0.0.1:$KAFKA_PORT}"
# One host name for the issuer everywhere: Keycloak is started with --hostname pinned to it.
OIDC_URL="${JOBMON_OIDC_URL:-http://localhost:$KEYCLOAK_PORT/realms/jobmon}"
OIDC_CLIENT="${JOBMON_OIDC_CLIENT:-jobmon-ui}"
CORS_ORIGINS="${JOBMON_CORS_ORIGINS:-http://localhost:3000}"
KC_ADMIN="${JOBMON_KEYCLOAK_ADMIN:-admin}"
# diagnosis-service's own client (deploy/keycloak/jobmon-realm.json); the secret is the local realm's, for your own
# Keycloak set JOBMON_DIAGNOSIS_CLIENT_SECRET (or JOBMON_DIAGNOSIS_SERVICE_ACCOUNT=false to run without it).
DIAGNOSIS_SERVICE_ACCOUNT="${JOBMON_DIAGNOSIS_SERVICE_ACCOUNT:-true}"
DIAGNOSIS_CLIENT_ID="${JOBMON_DIAGNOSIS_CLIENT_ID:-jobmon-diagnosis}"
DIAGNOSIS_CLIENT_SECRET="${JOBMON_DIAGNOSIS_CLIENT_SECRET:-jobmon-diagnosis-local-secret}"
KC_ADMIN_PASSWORD="${JOBMON_KEYCLOAK_ADMIN_PASSWORD:-admin}"

# The simulated GPU cluster 'sim' (deploy/simcluster): a Kubernetes API, GPU nodes, exporters and a log feed.
# JOBMON_SIM=0 leaves it out (the services then know only the external cluster 'local').
SIM_ENABLED="${JOBMON_SIM:-1}"
# Its ports move with JOBMON_PORT_BASE (16443, 16444, 19400 for 8080), so a moved stack (the e2e test's) moves its sim.
SIM_API_PORT="${JOBMON_SIM_API_PORT:-$((PORT_BASE + 8363))}"
SIM_ADMIN_PORT="${JOBMON_SIM_ADMIN_PORT:-$((PORT_BASE + 8364))}"
# node i: dcgm-exporter base+2i, node_exporter base+2i+1 (replayed bundles' nodes follow the fleet's)
SIM_EXPORTER_BASE_PORT="${JOBMON_SIM_EXPORTER_BASE_PORT:-$((PORT_BASE + 11320))}"
SIM_NAMESPACE="${JOBMON_SIM_NAMESPACE:-jobmon-jobs}"
SIM_RUN_TIME="${JOBMON_SIM_RUN_TIME:-10m}"      # how long a healthy job runs on the sim
# Measured: ~165 MiB RSS idle with these (deploy/simcluster/README.md, Costs).
SIM_JAVA_OPTS="${JOBMON_SIM_JAVA_OPTS:--Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k -XX:ReservedCodeCacheSize=64m}"

SERVICES=(gateway job-service event-ingest-service metrics-service log-service diagnosis-service)
INFRA=(postgres kafka keycloak)
[[ "$SIM_ENABLED" != 0 ]] && INFRA+=(sim)
# Where log-service keeps chunk bodies (./jobmon up --chunk-store postgres|s3, or JOBMON_CHUNK_STORE): s3 adds the
# component s3 (s3proxy, bodies under $STATE_DIR/s3; components.sh, start_s3).
CHUNK_STORE="${JOBMON_CHUNK_STORE:-postgres}"
S3_PORT="${JOBMON_S3_PORT:-$((PORT_BASE + 8365))}"
# (an s3 started earlier stays known to down and status)
[[ "$CHUNK_STORE" == s3 || -s "$RUN_DIR/s3.pid" ]] && INFRA+=(s3)

# set_chunk_store postgres|s3 (up --chunk-store): with s3, the component s3 joins the infrastructure.
set_chunk_store() {
  [[ "$1" == postgres || "$1" == s3 ]] || die "--chunk-store is postgres or s3, not '$1'"
  CHUNK_STORE="$1"
  [[ "$1" == s3 && " ${INFRA[*]} " != *" s3 "* ]] && INFRA+=(s3)
  set_replicas "$REPLICAS"
}
# Replicas of the consuming services (./jobmon up --replicas N, or JOBMON_REPLICAS=N; 1..MAX_REPLICAS). Replica r >= 2
# of a service is the component <service>-r (job-service-2: run/job-service-2.pid, logs/job-service-2.log) on a port
# block of its own: PORT_BASE + 10*r + 20 + i, management + 1000 (replica 2 of job-service: 8121, 9121), clear of
# the Kafka (9092), Keycloak (+100) and sim ports. The gateway stays single: it is the one entrance (a second one
# would need a balancer in front) and spreads each service's requests over its replicas.
SCALED_SERVICES=(job-service event-ingest-service metrics-service log-service diagnosis-service)
MAX_REPLICAS=6
REPLICAS="${JOBMON_REPLICAS:-1}"

# set_replicas N: the replica components of N replicas (REPLICA_COMPONENTS) and ALL_COMPONENTS with them.
set_replicas() {
  [[ "$1" =~ ^[1-9][0-9]*$ ]] && (($1 <= MAX_REPLICAS)) || die "replicas must be 1..$MAX_REPLICAS, not '$1'"
  REPLICAS="$1"
  local r m
  REPLICA_COMPONENTS=()
  for ((r = 2; r <= REPLICAS; r++)); do
    for m in "${SCALED_SERVICES[@]}"; do REPLICA_COMPONENTS+=("$m-$r"); done
  done
  # Prometheus and Alertmanager (deploy/local/monitoring.sh) after the services they watch.
  ALL_COMPONENTS=("${INFRA[@]}" "${SERVICES[@]}" "${REPLICA_COMPONENTS[@]}" ${MONITORING_COMPONENTS[@]+"${MONITORING_COMPONENTS[@]}"})
}

# The replica components that have a PID file (started by an earlier 'up --replicas N'): down and status know them
# whatever JOBMON_REPLICAS says now.
replicas_on_record() {
  local f n
  for f in "$RUN_DIR"/*-[2-9].pid; do
    [[ -e "$f" ]] || continue
    n="$(basename "$f" .pid)"
    [[ " ${SCALED_SERVICES[*]} " == *" ${n%-[2-9]} "* ]] && echo "$n"
  done
  return 0
}

# base_service NAME: the module a component runs (job-service-2 -> job-service); replica_of NAME: its replica number.
base_service() { if [[ "$1" =~ ^(.+)-([2-9])$ ]]; then echo "${BASH_REMATCH[1]}"; else echo "$1"; fi; }
replica_of() { if [[ "$1" =~ -([2-9])$ ]]; then echo "${BASH_REMATCH[1]}"; else echo 1; fi; }
# Services that reach the sim's API at start (their clusters' kubeconfig): started once it is ready.
SIM_CLIENTS=(job-service event-ingest-service metrics-service)

LAUNCHER_DIR="$ROOT/deploy/launcher"
LAUNCHER_CP="$LAUNCHER_DIR/target/classes:$LAUNCHER_DIR/target/lib/*"
SIM_DIR="$ROOT/deploy/simcluster"
SIM_CP="$SIM_DIR/target/simcluster.jar:$SIM_DIR/target/lib/*"
SIM_STATE="$STATE_DIR/sim"
# Local-only settings of the services (clusters, exporter discovery), written by 'up' and passed to every service as
# QUARKUS_CONFIG_LOCATIONS, as the Helm chart passes its clusters file; nothing of it is in application.properties.
LOCAL_CONFIG="$STATE_DIR/config/local.properties"
KC_VERSION="$(sed -n 's:.*<keycloak.version>\(.*\)</keycloak.version>.*:\1:p' "$ROOT/pom.xml" 2>/dev/null | head -n1)"
KC_VERSION="${KC_VERSION:-26.5.6}"
KC_HOME="$STATE_DIR/keycloak"
# A new Keycloak rebuilds itself for dev mode on its first start (~50 s on 2 cores): the first one
# that stops cleanly is kept here without its data, and copied into new state folders.
CACHE_DIR="${JOBMON_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/jobmon}"
KC_TEMPLATE="$CACHE_DIR/keycloak-$KC_VERSION-dev"
REALM_FILE="$ROOT/deploy/keycloak/jobmon-realm.json"

JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if [[ -x "$ROOT/mvnw" ]]; then MVN=("$ROOT/mvnw"); else MVN=(mvn); fi

# ---------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------
say() { printf 'jobmon: %s\n' "$*"; }
warn() { printf 'jobmon: %s\n' "$*" >&2; }
die() { printf 'jobmon: %s\n' "$*" >&2; exit 1; }
have() { local p; p="$(command -v "$1" 2>/dev/null)" && [[ -x "$p" ]]; }
now() { date +%s; }

log_file() { printf '%s/%s.log' "$LOG_DIR" "$1"; }

# Prints the tail of a component's log, indented, to stderr.
show_log_tail() {
  local f; f="$(log_file "$1")"
  if [[ -s "$f" ]]; then
    warn "last lines of $f:"
    tail -n "${2:-30}" "$f" | cut -c1-400 | sed 's/^/    /' >&2
  else
    warn "(no log at $f)"
  fi
}

# ---------------------------------------------------------------------------------------------
# Components: ports and how each one tells it is ready
# ---------------------------------------------------------------------------------------------
service_port() {
  local i base r
  base="$(base_service "$1")"; r="$(replica_of "$1")"
  for i in "${!SERVICES[@]}"; do
    if [[ "${SERVICES[$i]}" == "$base" ]]; then
      if ((r == 1)); then echo $((PORT_BASE + i)); else echo $((PORT_BASE + 10 * r + 20 + i)); fi
      return 0
    fi
  done
  return 1
}

management_port() {
  local p; p="$(service_port "$1")" || return 1
  echo $((p - PORT_BASE + MGMT_PORT_BASE))
}

component_ports() {
  case "$1" in
    postgres) echo "$PG_PORT" ;;
    kafka) echo "$KAFKA_PORT $KAFKA_CONTROLLER_PORT" ;;
    keycloak) echo "$KEYCLOAK_PORT" ;;
    sim) echo "$SIM_API_PORT $SIM_ADMIN_PORT" ;;
    prometheus | alertmanager) monitoring_port "$1" ;;
    s3) echo "$S3_PORT" ;;
    *) echo "$(service_port "$1") $(management_port "$1")" ;;
  esac
}

is_component() {
  local c
  for c in "${ALL_COMPONENTS[@]}"; do [[ "$c" == "$1" ]] && return 0; done
  return 1
}

# External components are not started or stopped here.
is_external() {
  case "$1" in
    postgres) [[ -n "$EXTERNAL_DB" ]] ;;
    kafka) [[ -n "$EXTERNAL_KAFKA" ]] ;;
    keycloak) [[ -n "$EXTERNAL_OIDC" ]] ;;
    prometheus | alertmanager) monitoring_external "$1" ;;
    *) return 1 ;;
  esac
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# HTTP status code of a GET (000 when nothing answers); curl when present, else a tiny Java client.
http_code() {
  if have curl; then
    curl -s -o /dev/null -m 5 -w '%{http_code}' "$1" 2>/dev/null || true
  else
    "$JAVA" -cp "$LAUNCHER_CP" io.jobmon.launcher.HttpMain status "$1" 2>/dev/null || echo 000
  fi
}

readiness_url() {
  case "$1" in
    keycloak) echo "$OIDC_URL/.well-known/openid-configuration" ;;
    sim) echo "http://127.0.0.1:$SIM_ADMIN_PORT/healthz" ;;
    postgres | kafka | s3) echo "" ;;
    prometheus | alertmanager) echo "$(monitoring_url "$1")/-/ready" ;;
    *) echo "http://127.0.0.1:$(management_port "$1")/q/health/ready" ;;
  esac
}

# Cheap readiness check (status and the wait loop of up).
is_ready() {
  case "$1" in
    postgres)
      if is_external postgres; then return 0; fi
      port_open "$PG_PORT" && grep -q JOBMON-POSTGRES-READY "$(log_file postgres)" 2>/dev/null ;;
    kafka)
      if is_external kafka; then return 0; fi
      port_open "$KAFKA_PORT" ;;
    s3) port_open "$S3_PORT" ;;
    *) [[ "$(http_code "$(readiness_url "$1")")" == 200 ]] ;;
  esac
}

# ---------------------------------------------------------------------------------------------
# Processes: every component runs in its own session (setsid), its PID in run/<name>.pid, and
# carries -Djobmon.component=<name> on its command line so a PID file is never trusted blindly.
# Nothing is ever killed by name.
# ---------------------------------------------------------------------------------------------
pid_file() { printf '%s/%s.pid' "$RUN_DIR" "$1"; }

pid_of() {
  local f; f="$(pid_file "$1")"
  [[ -s "$f" ]] && tr -dc '0-9' <"$f"
}

cmdline_of() {
  if [[ -r "/proc/$1/cmdline" ]]; then tr '\0' ' ' <"/proc/$1/cmdline"; else ps -o command= -p "$1" 2>/dev/null; fi
}

# True when the PID is alive and is the component we started.
is_ours() {
  alive "$1" && [[ "$(cmdline_of "$1") " == *"-Djobmon.component=$2 "* ]]
}

is_running() {
  local pid; pid="$(pid_of "$1")" || return 1
  [[ -n "$pid" ]] && is_ours "$pid" "$1"
}

# start_bg NAME DIR CMD... : runs CMD in DIR in a new session, output to logs/NAME.log.
start_bg() {
  local name="$1" dir="$2"; shift 2
  local log pidf i
  log="$(log_file "$name")"; pidf="$(pid_file "$name")"
  mkdir -p "$LOG_DIR" "$RUN_DIR"
  [[ -f "$log" ]] && mv -f "$log" "$log.1"
  rm -f "$pidf"
  (cd "$dir" && exec setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidf" "$@") >"$log" 2>&1 </dev/null &
  for i in $(seq 1 100); do
    [[ -s "$pidf" ]] && return 0
    sleep 0.05
  done
  die "could not start $name (no PID file); see $log"
}

# alive PID: the process exists and is not a zombie (an exited JVM may linger as a zombie
# until it is reaped; its command line is empty by then).
alive() {
  local st
  kill -0 "$1" 2>/dev/null || return 1
  { read -r st <"/proc/$1/stat"; } 2>/dev/null || return 0
  st="${st##*) }"
  [[ "${st:0:1}" != Z ]]
}

# Non-zombie members of process group $1, one PID a line.
group_members() {
  local f st state ppid pgrp
  for f in /proc/[0-9]*/stat; do
    { read -r st <"$f"; } 2>/dev/null || continue
    read -r state ppid pgrp _ <<<"${st##*) }"
    [[ "$pgrp" == "$1" && "$state" != Z ]] && echo "${f//[^0-9]/}"
  done
  return 0
}

# Stops a component: TERM to its main process, KILL to its process group after STOP_TIMEOUT.
# Two phases so several components can shut down at once: stop_begin for all, then stop_finish.
declare -A STOPPING=()
stop_begin() {
  local name="$1" pid
  pid="$(pid_of "$name")" || return 0
  [[ -n "$pid" ]] || return 0
  if is_ours "$pid" "$name"; then
    STOPPING[$name]="$pid"
    kill -TERM "$pid" 2>/dev/null || true
  fi
}

stop_finish() {
  local name="$1" pid deadline
  pid="${STOPPING[$name]:-}"
  if [[ -z "$pid" ]]; then
    pid="$(pid_of "$name")" || return 0
    if [[ -n "$pid" ]] && alive "$pid"; then
      warn "$name: PID $pid (from $(pid_file "$name")) is another program now; leaving it alone"
      rm -f "$(pid_file "$name")"
      return 0
    fi
    # Its main process is gone; members of its process group may still live (see below).
    [[ -n "$pid" ]] || { rm -f "$(pid_file "$name")"; return 0; }
  fi
  deadline=$(($(now) + STOP_TIMEOUT))
  while alive "$pid" && (($(now) < deadline)); do sleep 0.2; done
  STOPPED_CLEANLY=1
  if alive "$pid"; then
    STOPPED_CLEANLY=0
    warn "$name did not stop within ${STOP_TIMEOUT}s; killing process group $pid"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  # Children left in its process group (e.g. the JVM under Keycloak's kc.sh). The group id stays
  # reserved while any member lives, so this is still the group we started.
  if [[ -n "$(group_members "$pid")" ]]; then
    kill -TERM -- "-$pid" 2>/dev/null || true
    deadline=$(($(now) + 10))
    while [[ -n "$(group_members "$pid")" ]] && (($(now) < deadline)); do sleep 0.2; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  unset "STOPPING[$name]"
  rm -f "$(pid_file "$name")"
  [[ "$name" == postgres ]] && stop_orphan_postmaster
  return 0
}

# The postmaster runs in its own session; the launcher's shutdown hook stops it, but after a
# KILL it would survive. Its PID is the first line of the data directory's postmaster.pid.
stop_orphan_postmaster() {
  local f="$STATE_DIR/postgres/data/postmaster.pid" pid i
  [[ -s "$f" ]] || return 0
  pid="$(head -n1 "$f" | tr -dc '0-9')"
  [[ -n "$pid" ]] && alive "$pid" || return 0
  [[ "$(cmdline_of "$pid")" == *"$STATE_DIR/postgres/data"* ]] || return 0
  warn "postgres: stopping leftover postmaster $pid"
  kill -INT "$pid" 2>/dev/null || true # fast shutdown
  for i in $(seq 1 50); do alive "$pid" || return 0; sleep 0.2; done
  kill -QUIT "$pid" 2>/dev/null || true # immediate shutdown
}

# Resident memory, in KiB, as "<rss> <pss>", of the processes whose process group (field=pgrp)
# or parent (field=ppid) is $2. PSS shares shared pages out fairly, which matters for PostgreSQL,
# whose processes all map the same shared buffers.
memory_of() {
  local field="$1" id="$2" f st a rss=0 pss=0 pid page idx
  page=$(($(getconf PAGESIZE 2>/dev/null || echo 4096) / 1024))
  [[ "$field" == ppid ]] && idx=1 || idx=2
  for f in /proc/[0-9]*/stat; do
    { read -r st <"$f"; } 2>/dev/null || continue
    read -r -a a <<<"${st##*) }"
    pid="${f//[^0-9]/}"
    [[ "${a[$idx]}" == "$id" || ("$field" == ppid && "$pid" == "$id") ]] || continue
    rss=$((rss + a[21] * page))
    pss=$((pss + $(awk '/^Pss:/ {print $2; exit}' "/proc/$pid/smaps_rollup" 2>/dev/null || echo 0)))
  done
  echo "$rss $pss"
}

# "<rss> <pss>" KiB of a running component: its process group, and for PostgreSQL also the
# postmaster and its children (each PostgreSQL process runs in a session of its own).
component_memory() {
  local pid m r1 p1 r2=0 p2=0 f
  pid="$(pid_of "$1")" || { echo "0 0"; return; }
  read -r r1 p1 <<<"$(memory_of pgrp "$pid")"
  if [[ "$1" == postgres ]]; then
    f="$STATE_DIR/postgres/data/postmaster.pid"
    if [[ -s "$f" ]]; then
      m="$(head -n1 "$f" | tr -dc '0-9')"
      [[ -n "$m" ]] && read -r r2 p2 <<<"$(memory_of ppid "$m")"
    fi
  fi
  echo "$((r1 + r2)) $((p1 + p2))"
}

wait_ports_free() {
  local deadline=$(($(now) + ${2:-15})) p busy
  while :; do
    busy=""
    for p in $1; do port_open "$p" && busy="$busy $p"; done
    [[ -z "$busy" ]] && return 0
    (($(now) >= deadline)) && { echo "${busy# }"; return 1; }
    sleep 0.3
  done
}
