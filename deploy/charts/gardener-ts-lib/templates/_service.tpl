{{- define "gardener-ts-lib.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "gardener-ts-lib.fullname" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "gardener-ts-lib.labels" . | nindent 4 }}
  {{- with .Values.service.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  type: {{ .Values.service.type | default "ClusterIP" }}
  selector:
    {{- include "gardener-ts-lib.selectorLabels" . | nindent 4 }}
  ports:
    - name: health
      port: {{ include "gardener-ts-lib.configPort" (list . "healthProbes") }}
      targetPort: health
      protocol: TCP
    {{- if ne (include "gardener-ts-lib.configPort" (list . "metrics")) (include "gardener-ts-lib.configPort" (list . "healthProbes")) }}
    - name: metrics
      port: {{ include "gardener-ts-lib.configPort" (list . "metrics") }}
      targetPort: metrics
      protocol: TCP
    {{- end }}
    {{- if .Values.webhook.enabled }}
    - name: webhooks
      port: {{ .Values.webhook.servicePort | default 443 }}
      targetPort: webhooks
      protocol: TCP
    {{- end }}
{{- end -}}
