{{- define "gardener-ts-lib.deployment" -}}
{{- $health := include "gardener-ts-lib.configPort" (list . "healthProbes") | int -}}
{{- $metrics := include "gardener-ts-lib.configPort" (list . "metrics") | int -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "gardener-ts-lib.fullname" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "gardener-ts-lib.labels" . | nindent 4 }}
spec:
  replicas: {{ .Values.replicas | default 1 }}
  revisionHistoryLimit: 2
  selector:
    matchLabels:
      {{- include "gardener-ts-lib.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "gardener-ts-lib.labels" . | nindent 8 }}
      annotations:
        checksum/config: {{ toYaml .Values.config | sha256sum }}
        {{- with .Values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "gardener-ts-lib.serviceAccountName" . }}
      automountServiceAccountToken: true
      securityContext:
        runAsNonRoot: true
        runAsUser: {{ .Values.securityContext.runAsUser | default 1000 }}
        runAsGroup: {{ .Values.securityContext.runAsGroup | default 1000 }}
        fsGroup: {{ .Values.securityContext.runAsGroup | default 1000 }}
        seccompProfile:
          type: RuntimeDefault
      {{- with .Values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ include "gardener-ts-lib.name" . }}
          image: {{ include "gardener-ts-lib.image" . }}
          imagePullPolicy: {{ .Values.image.pullPolicy | default "IfNotPresent" }}
          args:
            - --config
            - {{ include "gardener-ts-lib.configMountPath" . }}/config.yaml
          {{- with .Values.env }}
          env:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          ports:
            - name: health
              containerPort: {{ $health }}
              protocol: TCP
            {{- if ne $metrics $health }}
            - name: metrics
              containerPort: {{ $metrics }}
              protocol: TCP
            {{- end }}
            {{- if .Values.webhook.enabled }}
            - name: webhooks
              containerPort: {{ include "gardener-ts-lib.configPort" (list . "webhooks") }}
              protocol: TCP
            {{- end }}
          livenessProbe:
            httpGet:
              path: /healthz
              port: {{ $health }}
              scheme: HTTP
            initialDelaySeconds: 15
            periodSeconds: 10
            failureThreshold: 3
          # Readiness from the start, every 2 s: each component is ready about a second after its start, and a
          # landscape or a rollout waits for it (from 5 s, every 10 s, each of them took at least 5 s).
          readinessProbe:
            httpGet:
              path: /readyz
              port: {{ $health }}
              scheme: HTTP
            periodSeconds: 2
            failureThreshold: 3
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            runAsNonRoot: true
            capabilities:
              drop: ["ALL"]
          {{- with .Values.resources }}
          resources:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          volumeMounts:
            - name: config
              mountPath: {{ include "gardener-ts-lib.configMountPath" . }}
              readOnly: true
            - name: tmp
              mountPath: /tmp
            {{- if .Values.webhook.enabled }}
            - name: webhook-certs
              mountPath: {{ required "webhook.certDir must be set when webhook.enabled" .Values.webhook.certDir }}
              {{- if .Values.webhook.tlsSecretName }}
              readOnly: true
              {{- end }}
            {{- end }}
            {{- with (.Values.natsCredentials | default dict).secretName }}
            - name: nats-credentials
              mountPath: {{ include "gardener-ts-lib.natsCredentialsMountPath" $ }}
              readOnly: true
            {{- end }}
            {{- with .Values.extraVolumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
      volumes:
        - name: config
          configMap:
            name: {{ printf "%s-config" (include "gardener-ts-lib.fullname" .) }}
        - name: tmp
          emptyDir: {}
        {{- if .Values.webhook.enabled }}
        - name: webhook-certs
          {{- if .Values.webhook.tlsSecretName }}
          secret:
            secretName: {{ .Values.webhook.tlsSecretName }}
          {{- else }}
          # No Secret given: a writable directory, for a component that generates its own serving certificate.
          emptyDir: {}
          {{- end }}
        {{- end }}
        {{- with (.Values.natsCredentials | default dict).secretName }}
        - name: nats-credentials
          secret:
            secretName: {{ . }}
            defaultMode: 256 # 0400: owner read-only
        {{- end }}
        {{- with .Values.extraVolumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
{{- end -}}
