# shellcheck shell=bash
# Prometheus and Alertmanager of the local stack (Debian's prometheus and prometheus-alertmanager packages), sourced
# by deploy/local/jobmon.sh after lib.sh and components.sh. They evaluate the shipped alert rules (deploy/monitoring/rules
# with every `for:` shortened, generated at `up`), scrape every service's management port and the sim's exporters,
# remote-write the sim's node_exporter series into jobmon with OAuth2 and route alerts to metrics-service's webhook.
# See deploy/README.md (Monitoring) and docs/adr/0032, 0033.

# ---------------------------------------------------------------------------------------------
# Settings (every one can be overridden from the environment)
# ---------------------------------------------------------------------------------------------
MONITORING_ENABLED="${JOBMON_MONITORING:-1}"                 # 0: neither is started (external URLs still apply)
PROMETHEUS_PORT="${JOBMON_PROMETHEUS_PORT:-$((PORT_BASE + 1090))}"
ALERTMANAGER_PORT="${JOBMON_ALERTMANAGER_PORT:-$((PORT_BASE + 1093))}"
EXTERNAL_PROMETHEUS="${JOBMON_PROMETHEUS_URL:-}"
EXTERNAL_ALERTMANAGER="${JOBMON_ALERTMANAGER_URL:-}"
PROMETHEUS_URL="${JOBMON_PROMETHEUS_URL:-http://127.0.0.1:$PROMETHEUS_PORT}"
PROMETHEUS_URL="${PROMETHEUS_URL%/}"
ALERTMANAGER_URL="${JOBMON_ALERTMANAGER_URL:-http://127.0.0.1:$ALERTMANAGER_PORT}"
ALERTMANAGER_URL="${ALERTMANAGER_URL%/}"
ALERT_FOR="${JOBMON_ALERT_FOR:-30s}"                        # every rule's `for:` locally
GPU_IDLE_FOR="${JOBMON_GPU_IDLE_FOR:-30s}"                  # metrics-service's idle-GPU window locally (10m shipped)
PROMETHEUS_CLUSTER="${JOBMON_PROMETHEUS_CLUSTER:-local}"    # the external label `cluster`
# The realm's remote-writer (deploy/keycloak/jobmon-realm.json): client credentials, realm role metrics-writer.
METRICS_WRITER_CLIENT_ID="${JOBMON_METRICS_WRITER_CLIENT_ID:-jobmon-metrics-writer}"
METRICS_WRITER_CLIENT_SECRET="${JOBMON_METRICS_WRITER_CLIENT_SECRET:-jobmon-metrics-writer-local-secret}"
MONITORING_DIR="$STATE_DIR/monitoring"
MONITORING_TEMPLATES="$ROOT/deploy/monitoring/local"
MONITORING_COMPONENTS=()
[[ "$MONITORING_ENABLED" != 0 ]] && MONITORING_COMPONENTS=(alertmanager prometheus)

is_monitoring() { [[ "$1" == prometheus || "$1" == alertmanager ]]; }

monitoring_external() {
  case "$1" in
    prometheus) [[ -n "$EXTERNAL_PROMETHEUS" ]] ;;
    alertmanager) [[ -n "$EXTERNAL_ALERTMANAGER" ]] ;;
    *) return 1 ;;
  esac
}

monitoring_port() { if [[ "$1" == prometheus ]]; then echo "$PROMETHEUS_PORT"; else echo "$ALERTMANAGER_PORT"; fi; }
monitoring_url() { if [[ "$1" == prometheus ]]; then echo "$PROMETHEUS_URL"; else echo "$ALERTMANAGER_URL"; fi; }

# True when this stack runs its own Prometheus: it then remote-writes the sim's node_exporter series, which
# metrics-service's own scraper leaves to it (ADR 0032).
local_prometheus() { [[ "$MONITORING_ENABLED" != 0 && -z "$EXTERNAL_PROMETHEUS" ]]; }

# ---------------------------------------------------------------------------------------------
# Binaries: Debian's packages, installed with apt-get when missing (as ./jobmon test installs promtool)
# ---------------------------------------------------------------------------------------------
prometheus_bin() { command -v prometheus 2>/dev/null; }
alertmanager_bin() { command -v prometheus-alertmanager 2>/dev/null || command -v alertmanager 2>/dev/null; }

# apt_install PACKAGE...: as root with apt-get; false otherwise.
apt_install() {
  [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1 || return 1
  say "installing $* with apt-get"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

ensure_monitoring_tools() {
  local missing=()
  [[ " $* " == *" prometheus "* ]] && ! prometheus_bin >/dev/null && missing+=(prometheus)
  [[ " $* " == *" alertmanager "* ]] && ! alertmanager_bin >/dev/null && missing+=(prometheus-alertmanager)
  ((${#missing[@]} == 0)) && return 0
  apt_install "${missing[@]}" || die "${missing[*]} not installed and no root apt-get here: install Debian's
  ${missing[*]} package(s), or point jobmon at yours (JOBMON_PROMETHEUS_URL, JOBMON_ALERTMANAGER_URL), or JOBMON_MONITORING=0"
}

# ---------------------------------------------------------------------------------------------
# Configuration, written on every start under $MONITORING_DIR
# ---------------------------------------------------------------------------------------------
# The services' local settings (in write_local_config's LOCAL_CONFIG): where the alerts API reads Alertmanager and the
# short idle-GPU window of JobGpusIdle.
monitoring_properties() {
  [[ "$MONITORING_ENABLED" == 0 && -z "$EXTERNAL_ALERTMANAGER$EXTERNAL_PROMETHEUS" ]] && return 0
  echo "# Alertmanager and JobGpusIdle's window (deploy/local/monitoring.sh; Prometheus: JOBMON_METRICS_PROMETHEUS_URL)."
  [[ "$MONITORING_ENABLED" != 0 || -n "$EXTERNAL_ALERTMANAGER" ]] && echo "jobmon.alerts.alertmanager-url=$ALERTMANAGER_URL"
  echo "jobmon.metrics.jobs.idle-for=$GPU_IDLE_FOR"
  echo "jobmon.metrics.jobs.gauges-every=10s"
}

# monitoring_env SERVICE: environment of a service about Prometheus. metrics-service's jobmon.metrics.prometheus.url (its
# prometheus storage mode) as JOBMON_METRICS_PROMETHEUS_URL: in local.properties a key under jobmon.metrics that
# MetricsConfig does not map fails its start (SRCFG00050), an environment variable does not.
monitoring_env() {
  [[ "$1" == metrics-service ]] || return 0
  [[ "$MONITORING_ENABLED" == 0 && -z "$EXTERNAL_PROMETHEUS" ]] && return 0
  echo "JOBMON_METRICS_PROMETHEUS_URL=$PROMETHEUS_URL"
}

# metrics-service's selector of the sim's node_exporter pods: none of them when the local Prometheus remote-writes
# their series (ADR 0032: one exporter family through remote-write, without doubling it), else the sim's label.
sim_node_selector() {
  if local_prometheus; then echo "app=node-exporter,jobmon.io/scraped-by=prometheus-remote-write"; else echo "app=node-exporter"; fi
}

# shorten_rules SRC DEST: the rule file with every `for: <duration>` line set to ALERT_FOR, nothing else changed.
shorten_rules() {
  local line re='^([[:space:]]*)for:[[:space:]]*[0-9][0-9smhdwy]*[[:space:]]*$'
  {
    printf '# Generated by ./jobmon up from deploy/monitoring/rules/%s: every for: set to %s.\n' "$(basename "$1")" "$ALERT_FOR"
    while IFS= read -r line || [[ -n "$line" ]]; do
      if [[ "$line" =~ $re ]]; then printf '%sfor: %s\n' "${BASH_REMATCH[1]}" "$ALERT_FOR"; else printf '%s\n' "$line"; fi
    done <"$1"
  } >"$2"
}

# fill_template NAME: deploy/monitoring/local/NAME with its @KEY@ placeholders replaced, into $MONITORING_DIR/NAME.
# Arguments after NAME are KEY=VALUE pairs.
fill_template() {
  local name="$1" text kv k v; shift
  text="$(<"$MONITORING_TEMPLATES/$name")"
  for kv in "$@"; do
    k="${kv%%=*}"; v="${kv#*=}"
    text="${text//"@$k@"/"$v"}"
  done
  [[ "$text" != *@[A-Z_]*@* ]] || die "$name: a placeholder is left: $(grep -o '@[A-Z_]*@' <<<"$text" | head -n1)"
  printf '%s\n' "$text" >"$MONITORING_DIR/$name.tmp"
  mv -f "$MONITORING_DIR/$name.tmp" "$MONITORING_DIR/$name"
}

# sd_group ADDRESS LABEL=VALUE...: one target group of a file_sd JSON file.
sd_group() {
  local addr="$1" kv labels="" sep=""; shift
  for kv in "$@"; do labels+="$sep\"${kv%%=*}\": \"${kv#*=}\""; sep=", "; done
  printf '  {"targets": ["%s"], "labels": {%s}}' "$addr" "$labels"
}

# sd_file NAME GROUP...: targets/NAME as a JSON array of the groups.
sd_file() {
  local name="$1" out="[" sep="" g; shift
  for g in "$@"; do out+="$sep"$'\n'"$g"; sep=","; done
  printf '%s\n]\n' "$out" >"$MONITORING_DIR/targets/$name"
}

# The management port of every service and replica, labelled as the chart's ServiceMonitors label them.
write_jobmon_targets() {
  local c groups=()
  for c in "${SERVICES[@]}" "${REPLICA_COMPONENTS[@]}"; do
    groups+=("$(sd_group "127.0.0.1:$(management_port "$c")" job="jobmon-$(base_service "$c")" namespace=local pod="$c")")
  done
  sd_file jobmon.json "${groups[@]}"
}

# The sim's exporters from its sim.env (JOBMON_SIM_EXPORTERS="node=dcgmPort,nodeExporterPort ..."): one file per family.
write_sim_targets() {
  local exporters="" e node ports dcgm=() nodex=()
  [[ "$SIM_ENABLED" != 0 && -f "$SIM_STATE/sim.env" ]] && exporters="$(. "$SIM_STATE/sim.env" && echo "${JOBMON_SIM_EXPORTERS:-}")"
  for e in $exporters; do
    node="${e%%=*}"; ports="${e#*=}"
    dcgm+=("$(sd_group "127.0.0.1:${ports%%,*}" cluster=sim node="$node")")
    nodex+=("$(sd_group "127.0.0.1:${ports#*,}" cluster=sim node="$node")")
  done
  # --metrics-storage prometheus: metrics-service scrapes the dcgm-exporters (it needs their samples for GPU holdings
  # and Xid events) and forwards them here; a scrape of this Prometheus' own would store each GPU's series twice.
  [[ "${JOBMON_METRICS_STORAGE:-builtin}" == prometheus ]] && dcgm=()
  sd_file dcgm-exporter.json ${dcgm[@]+"${dcgm[@]}"}
  sd_file node-exporter.json ${nodex[@]+"${nodex[@]}"}
}

# Alertmanager as Prometheus' alerting section needs it: scheme, host:port, path prefix.
alertmanager_parts() {
  local re='^(https?)://([^/]+)(/.*)?$'
  [[ "$ALERTMANAGER_URL" =~ $re ]] || die "JOBMON_ALERTMANAGER_URL is not an http(s) URL: $ALERTMANAGER_URL"
  echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]:-/}"
}

write_monitoring_config() {
  local f scheme host path metrics_url
  mkdir -p "$MONITORING_DIR/rules" "$MONITORING_DIR/targets" "$MONITORING_DIR/secrets"
  rm -f "$MONITORING_DIR"/rules/*.rules.yml
  for f in "$ROOT"/deploy/monitoring/rules/*.rules.yml; do shorten_rules "$f" "$MONITORING_DIR/rules/$(basename "$f")"; done
  (umask 077 && printf '%s' "$METRICS_WRITER_CLIENT_SECRET" >"$MONITORING_DIR/secrets/metrics-writer")
  write_jobmon_targets
  write_sim_targets
  read -r scheme host path <<<"$(alertmanager_parts)"
  metrics_url="http://127.0.0.1:$(service_port metrics-service)"
  local common=(DIR="$MONITORING_DIR" CLIENT_ID="$METRICS_WRITER_CLIENT_ID"
    TOKEN_URL="$OIDC_URL/protocol/openid-connect/token" METRICS_URL="$metrics_url")
  # --metrics-storage prometheus: jobmon reads its series here, so nothing is remote-written to it (it would forward
  # them back): the keep filter matches no job.
  local keep=node-exporter
  [[ "${JOBMON_METRICS_STORAGE:-builtin}" == prometheus ]] && keep=none-jobmon-reads-this-prometheus
  fill_template prometheus.yml "${common[@]}" CLUSTER="$PROMETHEUS_CLUSTER" AM_SCHEME="$scheme" AM_HOST="$host" \
    AM_PATH="$path" REMOTE_WRITE_KEEP="$keep" SIM_SD="http://127.0.0.1:$SIM_ADMIN_PORT"
  fill_template alertmanager.yml "${common[@]}"
}

# ---------------------------------------------------------------------------------------------
# Processes: a Go binary takes no -D option; its argv[0] carries the -Djobmon.component marker that is_ours checks.
# ---------------------------------------------------------------------------------------------
start_prometheus() {
  mkdir -p "$MONITORING_DIR/prometheus-data"
  start_bg prometheus "$MONITORING_DIR" bash -c 'exec -a "$0" "$@"' "prometheus -Djobmon.component=prometheus" \
    "$(prometheus_bin)" --config.file="$MONITORING_DIR/prometheus.yml" \
    --storage.tsdb.path="$MONITORING_DIR/prometheus-data" --storage.tsdb.retention.time=2d \
    --web.listen-address="127.0.0.1:$PROMETHEUS_PORT" --web.external-url="http://127.0.0.1:$PROMETHEUS_PORT" \
    --web.enable-lifecycle --web.enable-remote-write-receiver # metrics-service's --metrics-storage prometheus (ADR 0036)
}

start_alertmanager() {
  mkdir -p "$MONITORING_DIR/alertmanager-data"
  start_bg alertmanager "$MONITORING_DIR" bash -c 'exec -a "$0" "$@"' "alertmanager -Djobmon.component=alertmanager" \
    "$(alertmanager_bin)" --config.file="$MONITORING_DIR/alertmanager.yml" \
    --storage.path="$MONITORING_DIR/alertmanager-data" --web.listen-address="127.0.0.1:$ALERTMANAGER_PORT" \
    --web.external-url="http://127.0.0.1:$ALERTMANAGER_PORT" --cluster.listen-address=
}

# start_monitoring DEADLINE NAME...: after the services (Prometheus' targets and remote-write endpoint), each one
# started and waited for; one already running re-reads its configuration.
start_monitoring() {
  local deadline="$1" c own=(); shift
  for c in "$@"; do monitoring_external "$c" || own+=("$c"); done
  ((${#own[@]} > 0)) && ensure_monitoring_tools "${own[@]}"
  write_monitoring_config
  for c in "$@"; do
    is_running "$c" && { reload_monitoring "$c"; continue; }
    start_component "$c"
  done
  for c in "$@"; do wait_ready "$c" "$deadline"; done
}

reload_monitoring() {
  if have curl && curl -s -m 5 -o /dev/null -X POST "http://127.0.0.1:$(monitoring_port "$1")/-/reload"; then
    say "$1: already running (pid $(pid_of "$1")), configuration reloaded"
  else
    say "$1: already running (pid $(pid_of "$1"))"
  fi
}

print_monitoring_urls() {
  local c
  for c in "${MONITORING_COMPONENTS[@]}"; do printf '  %-21s %s\n' "$c" "$(monitoring_url "$c")"; done
  ((${#MONITORING_COMPONENTS[@]} > 0)) && echo "  alerts                amtool alert query --alertmanager.url=$ALERTMANAGER_URL"
  return 0
}
