#!/usr/bin/env bash
# The local stack without a container engine: ./jobmon up | down | status | logs | token | env | wipe | test
# See deploy/README.md for components, ports, environment variables and troubleshooting.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=deploy/local/lib.sh
source "$ROOT/deploy/local/lib.sh"
# shellcheck source=deploy/local/components.sh
source "$ROOT/deploy/local/components.sh"
# shellcheck source=deploy/local/monitoring.sh
source "$ROOT/deploy/local/monitoring.sh"
set_replicas "$REPLICAS"

usage() {
  cat <<EOF
usage: ./jobmon <command>

  up [--replicas N] [--chunk-store postgres|s3] [--metrics-storage builtin|prometheus] [name...]
                     build what changed, start PostgreSQL, Kafka, Keycloak, the sim, the six services, then Prometheus
                     and Alertmanager (JOBMON_MONITORING=0: not them), wait until ready
                     (or only the named components; 'infra' = postgres kafka keycloak, e.g. to run a service in an IDE);
                     --replicas N (or JOBMON_REPLICAS=N, 1..$MAX_REPLICAS): N instances of each consuming service
                     (job-service-2 ... on ports +40..+45 for replica 2), the gateway balancing over them;
                     --chunk-store s3 (or JOBMON_CHUNK_STORE=s3): log-service's chunk bodies in s3proxy (component s3);
                     --metrics-storage prometheus: metrics-service keeps samples in the local Prometheus (ADR 0036)
  down [name...]     stop everything ./jobmon started, or the named components (by PID: TERM, KILL after ${STOP_TIMEOUT}s)
  status             each component: state, PID, port, ready
  logs <name> [-f]   last 200 lines of a component's log (-f follows); names: ${ALL_COMPONENTS[*]}
  token <user> [pw]  an access token from Keycloak (password grant; the password defaults to the user name)
  env                the environment a service needs, to run one from an IDE against this stack
  wipe               down, then delete the state folder ($STATE_DIR)
  test               every test of every module: ${MVN[*]} -B verify

State: $STATE_DIR (JOBMON_STATE_DIR). Ports: JOBMON_PG_PORT=$PG_PORT JOBMON_KAFKA_PORT=$KAFKA_PORT
JOBMON_KEYCLOAK_PORT=$KEYCLOAK_PORT JOBMON_PORT_BASE=$PORT_BASE (gateway; services at +1..+5; replica r of a
service at +10r+20, e.g. +41..+45 for replica 2).
EOF
}

# ---------------------------------------------------------------------------------------------
# up
# ---------------------------------------------------------------------------------------------
check_ports_free() {
  local c p
  for c in "$@"; do
    is_external "$c" && continue
    is_running "$c" && continue
    for p in $(component_ports "$c"); do
      if port_open "$p"; then
        die "port $p, needed by $c, is taken by a process ./jobmon did not start (state $STATE_DIR).
  Another stack or an old run may hold it: './jobmon status', 'ss -ltnp | grep :$p'.
  Or move this stack: JOBMON_PG_PORT, JOBMON_KAFKA_PORT, JOBMON_KEYCLOAK_PORT, JOBMON_PORT_BASE (deploy/README.md)."
      fi
    done
  done
}

start_component() {
  local c="$1"
  if is_external "$c"; then
    say "$c: external ($(describe_external "$c"))"
    return 0
  fi
  if is_running "$c"; then
    say "$c: already running (pid $(pid_of "$c"))"
    return 0
  fi
  case "$c" in
    postgres) start_postgres ;;
    kafka) start_kafka ;;
    keycloak) start_keycloak ;;
    sim) start_sim ;;
    prometheus) start_prometheus ;;
    alertmanager) start_alertmanager ;;
    s3) start_s3 ;;
    *) start_service "$c" ;;
  esac
  say "$c: started (pid $(pid_of "$c"), log $(log_file "$c"))"
}

describe_external() {
  case "$1" in
    postgres) echo "$DB_URL" ;;
    kafka) echo "$KAFKA_BOOTSTRAP" ;;
    keycloak) echo "$OIDC_URL" ;;
    prometheus | alertmanager) monitoring_url "$1" ;;
  esac
}

# wait_ready NAME DEADLINE: until the component is ready; fails early when its process died.
wait_ready() {
  local c="$1" deadline="$2" what
  while ! is_ready "$c"; do
    if ! is_external "$c" && ! is_running "$c"; then
      warn "$c exited before it was ready"
      show_log_tail "$c" 40
      die "$c failed to start; after fixing it, run ./jobmon up again"
    fi
    if (($(now) >= deadline)); then
      case "$c" in
        postgres) what="port $PG_PORT and the ready line in its log" ;;
        kafka) what="port $KAFKA_PORT" ;;
        *) what="$(readiness_url "$c") answering 200 (last: $(http_code "$(readiness_url "$c")"))" ;;
      esac
      warn "$c is not ready after ${UP_TIMEOUT}s: waited for $what"
      if [[ "$c" != postgres && "$c" != kafka ]] && have curl; then
        warn "its answer: $(curl -s -m 5 "$(readiness_url "$c")" | cut -c1-600)"
      fi
      is_external "$c" || show_log_tail "$c" 25
      die "$c did not become ready (JOBMON_UP_TIMEOUT=${UP_TIMEOUT}s); the rest keeps running: './jobmon status', './jobmon logs $c', './jobmon down'"
    fi
    sleep 1
  done
  say "$c: ready ($(($(now) - T0))s)"
}

wait_kafka() {
  local deadline="$1" left
  if ! is_external kafka; then wait_ready kafka "$deadline"; fi
  left=$((deadline - $(now)))
  ((left < 10)) && left=10
  if ! setup_kafka_topics "$left"; then
    warn "kafka: no answer to a metadata call, or topic creation failed"
    sed 's/^/    /' "$LOG_DIR/kafka-setup.log" | tail -n 20 >&2
    is_external kafka || show_log_tail kafka 30
    die "kafka is not usable"
  fi
  say "kafka: topics ready ($(tail -n1 "$LOG_DIR/kafka-setup.log"))"
}

# Sets SELECTED to the components named (all by default; "infra" = postgres kafka keycloak).
select_components() {
  local a
  SELECTED=()
  if (($# == 0)); then SELECTED=("${ALL_COMPONENTS[@]}"); return 0; fi
  for a in "$@"; do
    if [[ "$a" == infra ]]; then SELECTED+=("${INFRA[@]}"); continue; fi
    is_component "$a" || die "unknown component '$a' (names: infra ${ALL_COMPONENTS[*]})"
    SELECTED+=("$a")
  done
}

# Knows, besides the replicas asked for, every replica an earlier 'up --replicas N' started (its PID file): for down
# and status.
know_recorded_replicas() {
  local n
  for n in $(replicas_on_record); do
    [[ " ${ALL_COMPONENTS[*]} " == *" $n "* ]] || ALL_COMPONENTS+=("$n")
  done
}

cmd_up() {
  T0=$(now)
  local sel c want_services=() want_infra=() want_monitoring=() deadline args=()
  while (($# > 0)); do
    case "$1" in
      --replicas) (($# > 1)) || die "--replicas needs a number"; set_replicas "$2"; shift 2 ;;
      --replicas=*) set_replicas "${1#--replicas=}"; shift ;;
      --metrics-storage | --metrics-storage=*) # metrics-service's jobmon.metrics.storage (ADR 0036)
        if [[ $1 == *=* ]]; then JOBMON_METRICS_STORAGE="${1#*=}"; shift; else JOBMON_METRICS_STORAGE="${2:-}"; shift $(($# > 1 ? 2 : 1)); fi
        [[ $JOBMON_METRICS_STORAGE =~ ^(builtin|prometheus)$ ]] || die "--metrics-storage needs builtin or prometheus"
        export JOBMON_METRICS_STORAGE ;;
      --chunk-store) (($# > 1)) || die "--chunk-store needs postgres or s3"; set_chunk_store "$2"; shift 2 ;;
      --chunk-store=*) set_chunk_store "${1#--chunk-store=}"; shift ;;
      *) args+=("$1"); shift ;;
    esac
  done
  set -- "${args[@]}"
  select_components "$@"
  sel=("${SELECTED[@]}")
  for c in "${ALL_COMPONENTS[@]}"; do
    [[ " ${sel[*]} " == *" $c "* ]] || continue
    if [[ " ${INFRA[*]} " == *" $c "* ]]; then want_infra+=("$c")
    elif is_monitoring "$c"; then want_monitoring+=("$c")
    else want_services+=("$c"); fi
  done
  mkdir -p "$STATE_DIR" "$LOG_DIR" "$RUN_DIR"
  [[ -f "$STATE_DIR/.jobmon-state" ]] || echo "State folder of ./jobmon (deploy/README.md); './jobmon wipe' deletes it." >"$STATE_DIR/.jobmon-state"
  have setsid || die "setsid (util-linux) is needed to run the stack's processes in their own sessions"
  check_ports_free "${want_infra[@]}" "${want_services[@]}" "${want_monitoring[@]}"

  # Keycloak is the slowest (its first start re-augments for dev mode): it starts before the build
  # and keeps starting while the rest comes up. Quarkus OIDC retries the discovery on the first
  # request when Keycloak was not up yet at a service's startup.
  local kc_starter=""
  if [[ " ${want_infra[*]} " == *" keycloak "* ]]; then
    # In the background: the first start downloads and unpacks the distribution (mvn) meanwhile.
    start_component keycloak >"$LOG_DIR/keycloak-start.log" 2>&1 </dev/null &
    kc_starter=$!
  fi
  # The launcher (it runs PostgreSQL and Kafka) and the sim build in seconds: they start while the services build.
  build_if_needed
  for c in "${want_infra[@]}"; do [[ "$c" == keycloak || "$c" == sim ]] || start_component "$c"; done
  build_if_needed "${want_services[@]}"
  write_local_config
  deadline=$(($(now) + UP_TIMEOUT))
  # Services need the database and the broker at startup, wherever those are; the sim ships its logs to the broker.
  if ((${#want_services[@]} > 0)) || [[ " ${want_infra[*]} " == *" postgres "* ]]; then
    wait_ready postgres "$deadline"
  fi
  local want_sim=0
  [[ " ${want_infra[*]} " == *" sim "* ]] && want_sim=1
  if ((${#want_services[@]} > 0 || want_sim)) || [[ " ${want_infra[*]} " == *" kafka "* ]]; then
    wait_kafka "$deadline"
  fi
  ((want_sim)) && start_component sim
  # The sim's clients read its kubeconfig: they start once it is ready, the others at once.
  for c in "${want_services[@]}"; do [[ " ${SIM_CLIENTS[*]} " == *" $(base_service "$c") "* ]] || start_component "$c"; done
  if [[ " ${want_infra[*]} " == *" s3 "* ]]; then wait_ready s3 "$deadline"; fi
  if ((want_sim)); then wait_ready sim "$deadline"; fi
  for c in "${want_services[@]}"; do [[ " ${SIM_CLIENTS[*]} " == *" $(base_service "$c") "* ]] && start_component "$c"; done
  deadline=$(($(now) + UP_TIMEOUT))
  if [[ -n "$kc_starter" ]]; then
    if ! wait "$kc_starter"; then
      cat "$LOG_DIR/keycloak-start.log" >&2
      die "keycloak could not be started"
    fi
    cat "$LOG_DIR/keycloak-start.log"
  fi
  if ((${#want_services[@]} > 0)) || [[ " ${want_infra[*]} " == *" keycloak "* ]]; then
    wait_ready keycloak "$deadline"
  fi
  for c in "${want_services[@]}"; do wait_ready "$c" "$deadline"; done
  ((${#want_monitoring[@]} > 0)) && start_monitoring "$(($(now) + UP_TIMEOUT))" "${want_monitoring[@]}"

  say "ready in $(($(now) - T0))s: ${sel[*]}"
  print_urls "${#want_services[@]}"
}

print_urls() {
  local m
  echo
  if (($1 > 0)); then
    echo "  gateway (the API)     http://localhost:$PORT_BASE        e.g. /api/v1/me, /api/v1/jobs, /openapi"
    for m in "${SERVICES[@]:1}" "${REPLICA_COMPONENTS[@]}"; do
      printf '  %-21s %s\n' "$m" "$(service_url "$m")"
    done
  fi
  cat <<EOF
  keycloak              ${OIDC_URL%/realms/*}/admin  (admin: $KC_ADMIN/$KC_ADMIN_PASSWORD; realm jobmon: alice bob carol dave admin, password = user name)
  issuer                $OIDC_URL
  kafka                 $KAFKA_BOOTSTRAP
  postgres              $DB_URL  (user $DB_USER)
  logs                  $LOG_DIR/<name>.log   (./jobmon logs <name>)
$(print_monitoring_urls)

  token:  TOKEN=\$(./jobmon token alice)
          curl -H "Authorization: Bearer \$TOKEN" http://localhost:$PORT_BASE/api/v1/me
  or:     curl -s -d grant_type=password -d client_id=$OIDC_CLIENT -d username=alice -d password=alice \\
            $OIDC_URL/protocol/openid-connect/token | sed -n 's/.*"access_token":"\\([^"]*\\)".*/\\1/p'
EOF
}

# ---------------------------------------------------------------------------------------------
# down / status / logs / token / env / wipe / test
# ---------------------------------------------------------------------------------------------
cmd_down() {
  local c ports="" busy sel=() svc=() infra=()
  [[ -d "$RUN_DIR" ]] || { say "nothing to stop ($RUN_DIR does not exist)"; return 0; }
  know_recorded_replicas
  select_components "$@"
  sel=("${SELECTED[@]}")
  # Prometheus and Alertmanager first (their targets go away next), then the services.
  for c in ${MONITORING_COMPONENTS[@]+"${MONITORING_COMPONENTS[@]}"} "${SERVICES[@]}" "${REPLICA_COMPONENTS[@]}" $(replicas_on_record); do
    [[ " ${sel[*]} " == *" $c "* && " ${svc[*]} " != *" $c "* ]] && svc+=("$c")
  done
  for c in "${INFRA[@]}"; do [[ " ${sel[*]} " == *" $c "* ]] && infra+=("$c"); done
  # Services first (they leave their consumer groups cleanly), then the infrastructure.
  for c in "${svc[@]}"; do stop_begin "$c"; done
  for c in "${svc[@]}"; do stop_finish "$c"; done
  for c in "${infra[@]}"; do stop_begin "$c"; done
  for c in "${infra[@]}"; do
    STOPPED_CLEANLY=0
    stop_finish "$c"
    if [[ "$c" == keycloak && "$STOPPED_CLEANLY" == 1 ]] && ! is_external keycloak; then save_keycloak_template; fi
  done
  for c in "${sel[@]}"; do is_external "$c" || ports="$ports $(component_ports "$c")"; done
  if ! busy="$(wait_ports_free "$ports" 20)"; then
    warn "still listening after down: port(s) $busy (not started from $STATE_DIR, or still closing)"
    return 1
  fi
  say "stopped ${sel[*]}; ports free:$ports"
}

cmd_status() {
  local c pid state ready ports rss pss total_rss=0 total_pss=0
  know_recorded_replicas
  printf '%-22s %-9s %-8s %-12s %-6s %s\n' COMPONENT STATE PID PORT READY "RSS/PSS MiB"
  for c in "${ALL_COMPONENTS[@]}"; do
    ports="$(component_ports "$c" | tr ' ' ',')"
    pid="-"; rss=0; pss=0
    if is_external "$c"; then
      state=external; ports="-"
    elif is_running "$c"; then
      state=running; pid="$(pid_of "$c")"
      read -r rss pss <<<"$(component_memory "$c")"
    else
      state=stopped
    fi
    if [[ "$state" == stopped ]]; then ready="-"; elif is_ready "$c"; then ready=yes; else ready=no; fi
    total_rss=$((total_rss + rss)); total_pss=$((total_pss + pss))
    printf '%-22s %-9s %-8s %-12s %-6s %s\n' "$c" "$state" "$pid" "$ports" "$ready" \
      "$([[ "$state" == running ]] && echo "$((rss / 1024))/$((pss / 1024))" || echo -)"
  done
  printf '%-22s %-9s %-8s %-12s %-6s %s\n' total "" "" "" "" "$((total_rss / 1024))/$((total_pss / 1024))"
  echo "state: $STATE_DIR"
}

cmd_logs() {
  local name="" follow=0 a f
  for a in "$@"; do
    case "$a" in -f | --follow) follow=1 ;; *) name="$a" ;; esac
  done
  if [[ -z "$name" ]]; then
    ls -1 "$LOG_DIR" 2>/dev/null | sed 's/\.log$//' || true
    echo "usage: ./jobmon logs <name> [-f]"
    return 0
  fi
  f="$(log_file "$name")"
  [[ -f "$f" ]] || die "no log $f (names: ${ALL_COMPONENTS[*]} build kafka-setup keycloak-install)"
  if ((follow)); then exec tail -n 200 -f "$f"; else tail -n 200 "$f"; fi
}

cmd_token() {
  local user="${1:-}" pw="${2:-${1:-}}" endpoint resp token
  [[ -n "$user" ]] || die "usage: ./jobmon token <user> [password]"
  endpoint="$OIDC_URL/protocol/openid-connect/token"
  if have curl; then
    resp="$(curl -s -m 10 -d grant_type=password -d "client_id=$OIDC_CLIENT" \
      --data-urlencode "username=$user" --data-urlencode "password=$pw" "$endpoint")" \
      || die "no answer from $endpoint (is Keycloak up? ./jobmon status)"
    token="$(sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p' <<<"$resp")"
    [[ -n "$token" ]] || die "no token for $user from $endpoint: $resp"
    echo "$token"
  else
    "$JAVA" -cp "$LAUNCHER_CP" io.jobmon.launcher.HttpMain token "$endpoint" "$OIDC_CLIENT" "$user" "$pw"
  fi
}

cmd_env() {
  cat <<EOF
export JOBMON_DB_URL='$DB_URL'
export JOBMON_DB_USER='$DB_USER'
export JOBMON_DB_PASSWORD='$DB_PASSWORD'
export JOBMON_KAFKA_BOOTSTRAP='$KAFKA_BOOTSTRAP'
export JOBMON_OIDC_URL='$OIDC_URL'
export JOBMON_CORS_ORIGINS='$CORS_ORIGINS'
export JOBMON_JOB_SERVICE_URL='$(service_url job-service)'
export JOBMON_EVENT_SERVICE_URL='$(service_url event-ingest-service)'
export JOBMON_METRICS_SERVICE_URL='$(service_url metrics-service)'
export JOBMON_LOG_SERVICE_URL='$(service_url log-service)'
export JOBMON_DIAGNOSIS_SERVICE_URL='$(service_url diagnosis-service)'
export JOBMON_EVENT_INGEST_URL='$(service_url event-ingest-service)'
# the clusters (local, sim) and the sim's exporter discovery; written by ./jobmon up
export QUARKUS_CONFIG_LOCATIONS='file:$LOCAL_CONFIG'
EOF
}

# What ./jobmon keeps in a state folder: the only entries wipe deletes.
STATE_ENTRIES=(postgres kafka keycloak keycloak-unpack sim monitoring config logs run .build-started .jobmon-state)

cmd_wipe() {
  local real e
  [[ -d "$STATE_DIR" ]] || { say "nothing to wipe ($STATE_DIR does not exist)"; return 0; }
  real="$(cd "$STATE_DIR" && pwd -P)"
  case "$real" in
    / | "$(cd "$HOME" && pwd -P)" | "$(cd "$ROOT" && pwd -P)") die "refusing to wipe $STATE_DIR" ;;
  esac
  [[ "$(cd "$ROOT" && pwd -P)/" == "$real/"* ]] && die "refusing to wipe $STATE_DIR: it holds the repository"
  # Only a folder that ./jobmon up marked as its own, and in it only what ./jobmon puts there.
  [[ -f "$STATE_DIR/.jobmon-state" ]] || die "refusing to wipe $STATE_DIR: no .jobmon-state marker, not a ./jobmon state folder"
  cmd_down || die "not wiping while something still listens"
  for e in "${STATE_ENTRIES[@]}"; do rm -rf "${STATE_DIR:?}/$e"; done
  rmdir "$STATE_DIR" 2>/dev/null || warn "left $STATE_DIR in place: it holds files ./jobmon did not put there"
  say "deleted the stack's state in $STATE_DIR (PostgreSQL data, Kafka log, Keycloak and its database, logs)."
  say "the next 'up' is a first start: Keycloak is unpacked again and imports deploy/keycloak/jobmon-realm.json"
  say "(Keycloak imports a realm only into an empty database; 'up' also re-imports by itself when that file changed)."
}

# sim_tool MAIN ARGS...: a client program of the running stack (deploy/simcluster's io.jobmon.sim.stack), told where
# the gateway, the realm and the sim answer.
sim_tool() {
  local main="$1"; shift
  [[ "$SIM_ENABLED" != 0 ]] || die "the sim cluster is off (JOBMON_SIM=0)"
  [[ -f "$SIM_DIR/target/simcluster.jar" ]] || die "deploy/simcluster is not built: ./jobmon up builds it"
  is_ready sim || die "the sim cluster does not answer on $(readiness_url sim): ./jobmon up (./jobmon status)"
  is_ready gateway || die "the gateway is not ready: ./jobmon up (./jobmon status)"
  exec "$JAVA" -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$SIM_CP" "$main" \
    --gateway "http://localhost:$PORT_BASE" --issuer "$OIDC_URL" --client "$OIDC_CLIENT" \
    --sim-admin "http://127.0.0.1:$SIM_ADMIN_PORT" --sim-api "http://127.0.0.1:$SIM_API_PORT" \
    --cluster sim --namespace "$SIM_NAMESPACE" "$@"
}

cmd_demo() { sim_tool io.jobmon.sim.stack.DemoMain "$@"; }

cmd_replay() {
  (($# > 0)) || die "usage: ./jobmon replay [--user alice] [--project project-nlp] BUNDLE.json... (e.g. diagnosis-service/src/test/resources/samples/008-gpu_oom.json), or ./jobmon replay --summary DIR [--max-differ 0]"
  sim_tool io.jobmon.sim.stack.ReplayMain "$@"
}

cmd_test() {
  cd "$ROOT"
  ensure_test_tools
  exec "${MVN[@]}" -B verify "$@"
}

# deploy/chart-tests checks the alert rules with promtool and the Alertmanager configuration with amtool (Debian's
# prometheus and prometheus-alertmanager packages); the gateway's TypeScriptClientTest compiles a client generated
# from the merged OpenAPI document with Node.js and npm. Install what is missing; without root or apt the tests
# fail and name the package.
ensure_test_tools() {
  local missing=()
  command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
  command -v amtool >/dev/null 2>&1 || missing+=(prometheus-alertmanager)
  command -v victoria-metrics >/dev/null 2>&1 || missing+=(victoria-metrics) # metrics-service's prometheus-mode tests
  command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
  [[ ${#missing[@]} -eq 0 ]] && return 0
  apt_install "${missing[@]}" \
    || warn "${missing[*]} not installed (promtool/amtool/npm) and no root apt-get here: the tests needing them will fail"
}

cmd="${1:-help}"
[[ $# -gt 0 ]] && shift
case "$cmd" in
  up) cmd_up "$@" ;;
  down | stop) cmd_down "$@" ;;
  status) cmd_status "$@" ;;
  logs | log) cmd_logs "$@" ;;
  token) cmd_token "$@" ;;
  env) cmd_env "$@" ;;
  wipe) cmd_wipe "$@" ;;
  test) cmd_test "$@" ;;
  demo) cmd_demo "$@" ;;
  replay) cmd_replay "$@" ;;
  help | -h | --help) usage ;;
  *) usage >&2; exit 2 ;;
esac
