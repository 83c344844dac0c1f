{{/*
Naming, labels and values shared by every gardener-ts component chart. A component chart's values provide:
image, replicas, resources, serviceAccount, rbac.rules, service, webhook and config (the component
configuration file, rendered to the ConfigMap key config.yaml and passed as --config).
*/}}

{{- define "gardener-ts-lib.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "gardener-ts-lib.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := include "gardener-ts-lib.name" . -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "gardener-ts-lib.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gardener-ts-lib.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "gardener-ts-lib.labels" -}}
{{ include "gardener-ts-lib.selectorLabels" . }}
app.kubernetes.io/part-of: gardener-ts
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end -}}

{{- define "gardener-ts-lib.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "gardener-ts-lib.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "gardener-ts-lib.image" -}}
{{- $repository := .Values.image.repository | default (printf "gardener-ts/%s" .Chart.Name) -}}
{{- printf "%s:%s" $repository (.Values.image.tag | default .Chart.AppVersion | toString) -}}
{{- end -}}

{{/* The component config's server.<endpoint>.port; the chart's values must set it explicitly. */}}
{{- define "gardener-ts-lib.configPort" -}}
{{- $ctx := index . 0 -}}
{{- $endpoint := index . 1 -}}
{{- $port := dig "server" $endpoint "port" 0 ($ctx.Values.config | default dict) | int -}}
{{- if le $port 0 -}}
{{- fail (printf "config.server.%s.port must be set to a port number (the Deployment's probes and Service use it)" $endpoint) -}}
{{- end -}}
{{- $port -}}
{{- end -}}

{{- define "gardener-ts-lib.configMountPath" -}}/etc/gardener-ts{{- end -}}

{{/* Where the Secret named by natsCredentials.secretName (a .creds file, an nkey seed or a token) is mounted. */}}
{{- define "gardener-ts-lib.natsCredentialsMountPath" -}}
{{- (.Values.natsCredentials | default dict).mountPath | default "/etc/gardener-ts/nats" -}}
{{- end -}}
