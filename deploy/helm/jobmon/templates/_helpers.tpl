{{/* Name of the release's objects: <release>-jobmon, or the release name when it already says jobmon. */}}
{{- define "jobmon.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "jobmon.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: jobmon
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one service's pods: call with (dict "root" $ "name" "job-service"). */}}
{{- define "jobmon.selectorLabels" -}}
app.kubernetes.io/name: jobmon
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "jobmon.componentLabels" -}}
{{ include "jobmon.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* Object name of one service: <fullname>-<service>. */}}
{{- define "jobmon.serviceName" -}}
{{- printf "%s-%s" (include "jobmon.fullname" .root) .name -}}
{{- end -}}

{{/* Base URL of one service inside the cluster. */}}
{{- define "jobmon.serviceUrl" -}}
{{- printf "http://%s:8080" (include "jobmon.serviceName" .) -}}
{{- end -}}

{{/* The service's management interface (readiness, metrics, OpenAPI), never routed by the gateway. */}}
{{- define "jobmon.managementUrl" -}}
{{- printf "http://%s:9000" (include "jobmon.serviceName" .) -}}
{{- end -}}

{{- define "jobmon.image" -}}
{{- $img := .root.Values.image -}}
{{- $repo := printf "%s/%s" $img.group .name -}}
{{- if $img.registry }}{{ $repo = printf "%s/%s" $img.registry $repo }}{{ end -}}
{{- printf "%s:%s" $repo (default .root.Chart.AppVersion $img.tag) -}}
{{- end -}}

{{/* Services that use PostgreSQL and Kafka: all but the gateway. */}}
{{- define "jobmon.usesBackends" -}}
{{- if ne .name "gateway" }}true{{ end -}}
{{- end -}}

{{/* Services that talk to Kubernetes API servers. */}}
{{- define "jobmon.usesKubeApi" -}}
{{- if has .name (list "job-service" "event-ingest-service") }}true{{ end -}}
{{- end -}}

{{- define "jobmon.kafkaName" -}}
{{- default (printf "%s-kafka" (include "jobmon.fullname" .)) .Values.kafka.strimzi.name -}}
{{- end -}}

{{- define "jobmon.kafkaBootstrap" -}}
{{- if .Values.kafka.bootstrapServers -}}
{{- .Values.kafka.bootstrapServers -}}
{{- else if .Values.kafka.strimzi.enabled -}}
{{- printf "%s-kafka-bootstrap:9092" (include "jobmon.kafkaName" .) -}}
{{- else -}}
{{- fail "kafka.bootstrapServers is required when kafka.strimzi.enabled is false" -}}
{{- end -}}
{{- end -}}

{{- define "jobmon.pgName" -}}
{{- default (printf "%s-pg" (include "jobmon.fullname" .)) .Values.postgresql.cnpg.name -}}
{{- end -}}

{{- define "jobmon.pgUrl" -}}
{{- if .Values.postgresql.url -}}
{{- .Values.postgresql.url -}}
{{- else if .Values.postgresql.cnpg.enabled -}}
{{- printf "postgresql://%s-rw:5432/jobmon" (include "jobmon.pgName" .) -}}
{{- else -}}
{{- fail "postgresql.url is required when postgresql.cnpg.enabled is false" -}}
{{- end -}}
{{- end -}}

{{/* The Secret with the database credentials and its keys. */}}
{{- define "jobmon.pgSecret" -}}
{{- if .Values.postgresql.existingSecret -}}
{{- .Values.postgresql.existingSecret -}}
{{- else if .Values.postgresql.cnpg.enabled -}}
{{- printf "%s-app" (include "jobmon.pgName" .) -}}
{{- else -}}
{{- fail "postgresql.existingSecret is required when postgresql.cnpg.enabled is false" -}}
{{- end -}}
{{- end -}}

{{/* Kubernetes-type clusters that are the cluster jobmon runs in (no kubeconfig Secret): RBAC is created for them. */}}
{{- define "jobmon.localJobNamespaces" -}}
{{- $ns := list -}}
{{- range .Values.clusters -}}
{{- if and (eq .type "kubernetes") (not .kubeconfigSecret) -}}
{{- $ns = append $ns .namespace -}}
{{- end -}}
{{- end -}}
{{- $ns | uniq | toJson -}}
{{- end -}}

{{/* Topic resource name: <fullname>-k8s-raw for jobmon.k8s.raw. */}}
{{- define "jobmon.topicResourceName" -}}
{{- printf "%s-%s" (include "jobmon.fullname" .root) (.topic | trimPrefix "jobmon." | replace "." "-") -}}
{{- end -}}
