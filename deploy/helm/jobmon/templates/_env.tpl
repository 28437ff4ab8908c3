{{/*
The plain settings of one service, as a dict of environment variables (the service's ConfigMap). Secrets are not
here: the Deployment adds them as secretKeyRefs. Values in services.<name>.env override what the chart computes.
Call with (dict "root" $ "name" "job-service").
*/}}
{{- define "jobmon.env" -}}
{{- $root := .root -}}
{{- $name := .name -}}
{{- $env := dict
    "QUARKUS_HTTP_PORT" "8080"
    "QUARKUS_MANAGEMENT_PORT" "9000"
    "JOBMON_MANAGEMENT_PORT" "9000"
    "JOBMON_OIDC_AUDIENCE" $root.Values.oidc.audience
    "JAVA_OPTS_APPEND" (printf "-Dvertx.disableHttpHeadersValidation=true %s" $root.Values.pod.javaOptions)
    "JOBMON_OIDC_URL" (required "oidc.issuerUrl is required" $root.Values.oidc.issuerUrl) -}}
{{- if include "jobmon.usesBackends" . -}}
{{- $_ := set $env "JOBMON_DB_URL" (include "jobmon.pgUrl" $root) -}}
{{- $_ := set $env "JOBMON_KAFKA_BOOTSTRAP" (include "jobmon.kafkaBootstrap" $root) -}}
{{- end -}}
{{- if include "jobmon.usesKubeApi" . -}}
{{- $_ := set $env "QUARKUS_CONFIG_LOCATIONS" "file:/etc/jobmon/clusters/clusters.properties" -}}
{{- end -}}
{{- if eq $name "gateway" -}}
{{- $_ := set $env "JOBMON_CORS_ORIGINS" $root.Values.gateway.corsOrigins -}}
{{- $_ := set $env "JOBMON_JOB_SERVICE_URL" (include "jobmon.serviceUrl" (dict "root" $root "name" "job-service")) -}}
{{- $_ := set $env "JOBMON_EVENT_SERVICE_URL" (include "jobmon.serviceUrl" (dict "root" $root "name" "event-ingest-service")) -}}
{{- $_ := set $env "JOBMON_METRICS_SERVICE_URL" (include "jobmon.serviceUrl" (dict "root" $root "name" "metrics-service")) -}}
{{- $_ := set $env "JOBMON_LOG_SERVICE_URL" (include "jobmon.serviceUrl" (dict "root" $root "name" "log-service")) -}}
{{- $_ := set $env "JOBMON_DIAGNOSIS_SERVICE_URL" (include "jobmon.serviceUrl" (dict "root" $root "name" "diagnosis-service")) -}}
{{- $_ := set $env "JOBMON_JOB_MANAGEMENT_URL" (include "jobmon.managementUrl" (dict "root" $root "name" "job-service")) -}}
{{- $_ := set $env "JOBMON_EVENT_MANAGEMENT_URL" (include "jobmon.managementUrl" (dict "root" $root "name" "event-ingest-service")) -}}
{{- $_ := set $env "JOBMON_METRICS_MANAGEMENT_URL" (include "jobmon.managementUrl" (dict "root" $root "name" "metrics-service")) -}}
{{- $_ := set $env "JOBMON_LOG_MANAGEMENT_URL" (include "jobmon.managementUrl" (dict "root" $root "name" "log-service")) -}}
{{- $_ := set $env "JOBMON_DIAGNOSIS_MANAGEMENT_URL" (include "jobmon.managementUrl" (dict "root" $root "name" "diagnosis-service")) -}}
{{- $_ := set $env "JOBMON_GATEWAY_CONNECTION_IDLE_TIMEOUT" $root.Values.gateway.connectionIdleTimeout -}}
{{- end -}}
{{- if eq $name "diagnosis-service" -}}
{{- $_ := set $env "JOBMON_JOB_SERVICE_URL" (include "jobmon.serviceUrl" (dict "root" $root "name" "job-service")) -}}
{{- $_ := set $env "JOBMON_EVENT_INGEST_URL" (include "jobmon.serviceUrl" (dict "root" $root "name" "event-ingest-service")) -}}
{{- $_ := set $env "JOBMON_METRICS_SERVICE_URL" (include "jobmon.serviceUrl" (dict "root" $root "name" "metrics-service")) -}}
{{- $_ := set $env "JOBMON_LOG_SERVICE_URL" (include "jobmon.serviceUrl" (dict "root" $root "name" "log-service")) -}}
{{- $_ := set $env "JOBMON_DIAGNOSIS_SERVICE_ACCOUNT" (toString $root.Values.oidc.diagnosisClient.enabled) -}}
{{- $_ := set $env "JOBMON_DIAGNOSIS_CLIENT_ID" $root.Values.oidc.diagnosisClient.clientId -}}
{{- end -}}
{{- if and (has $name (list "metrics-service" "job-service")) $root.Values.monitoring.alertmanager.url -}}
{{- $_ := set $env "JOBMON_ALERTMANAGER_URL" $root.Values.monitoring.alertmanager.url -}}
{{- end -}}
{{- if eq $name "metrics-service" -}}
{{- $_ := set $env "JOBMON_METRICS_STORAGE" $root.Values.metrics.storage -}}
{{- if eq $root.Values.metrics.storage "prometheus" -}}
{{- $_ := set $env "JOBMON_METRICS_PROMETHEUS_URL" (required "metrics.prometheus.url is required when metrics.storage is prometheus" $root.Values.metrics.prometheus.url) -}}
{{- if $root.Values.metrics.prometheus.remoteWriteUrl -}}
{{- $_ := set $env "JOBMON_METRICS_PROMETHEUS_REMOTE_WRITE_URL" $root.Values.metrics.prometheus.remoteWriteUrl -}}
{{- end -}}
{{- $_ := set $env "JOBMON_METRICS_PROMETHEUS_NODE_LABEL" $root.Values.metrics.prometheus.nodeLabel -}}
{{- else if ne $root.Values.metrics.storage "builtin" -}}
{{- fail (printf "metrics.storage is builtin or prometheus, not %v" $root.Values.metrics.storage) -}}
{{- end -}}
{{- end -}}
{{- if and (eq $name "log-service") (eq $root.Values.logs.chunkStore "s3") -}}
{{- $_ := set $env "JOBMON_LOGS_CHUNK_STORE" "s3" -}}
{{- $_ := set $env "JOBMON_LOGS_S3_ENDPOINT" (required "logs.s3.endpoint is required when logs.chunkStore is s3" $root.Values.logs.s3.endpoint) -}}
{{- $_ := set $env "JOBMON_LOGS_S3_BUCKET" $root.Values.logs.s3.bucket -}}
{{- $_ := set $env "JOBMON_LOGS_S3_PREFIX" $root.Values.logs.s3.prefix -}}
{{- $_ := set $env "JOBMON_LOGS_S3_REGION" $root.Values.logs.s3.region -}}
{{- $_ := set $env "JOBMON_LOGS_S3_PATH_STYLE" (toString $root.Values.logs.s3.pathStyle) -}}
{{- else if and (eq $name "log-service") (ne $root.Values.logs.chunkStore "postgres") -}}
{{- fail (printf "logs.chunkStore is postgres or s3, not %v" $root.Values.logs.chunkStore) -}}
{{- end -}}
{{- $svc := index $root.Values.services $name -}}
{{- range $k, $v := ($svc.env | default dict) -}}
{{- $_ := set $env $k (toString $v) -}}
{{- end -}}
{{- toJson $env -}}
{{- end -}}
