{{- define "gardener-ts-lib.configmap" -}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ printf "%s-config" (include "gardener-ts-lib.fullname" .) }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "gardener-ts-lib.labels" . | nindent 4 }}
data:
  config.yaml: |
    {{- toYaml (required "config must hold the component configuration" .Values.config) | nindent 4 }}
{{- end -}}
