{{- define "gardener-ts-lib.clusterrole" -}}
{{- if .Values.rbac.create }}
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ printf "gardener-ts:%s" (include "gardener-ts-lib.fullname" .) }}
  labels:
    {{- include "gardener-ts-lib.labels" . | nindent 4 }}
rules:
  {{- toYaml (required "rbac.rules must list the component's permissions" .Values.rbac.rules) | nindent 2 }}
{{- end }}
{{- end -}}

{{- define "gardener-ts-lib.clusterrolebinding" -}}
{{- if .Values.rbac.create }}
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: {{ printf "gardener-ts:%s" (include "gardener-ts-lib.fullname" .) }}
  labels:
    {{- include "gardener-ts-lib.labels" . | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: {{ printf "gardener-ts:%s" (include "gardener-ts-lib.fullname" .) }}
subjects:
  - kind: ServiceAccount
    name: {{ include "gardener-ts-lib.serviceAccountName" . }}
    namespace: {{ .Release.Namespace }}
{{- end }}
{{- end -}}
