{{/* The release's objects: "<release>-schemawatch", or the release's name when it says schemawatch. */}}
{{- define "schemawatch.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Every object's labels. app.kubernetes.io/name stays "schemawatch": the ServiceMonitor makes it the job label. */}}
{{- define "schemawatch.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/part-of: schemawatch
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* The pods the Service scrapes: schemawatch's own, or the application's it runs beside. */}}
{{- define "schemawatch.selectorLabels" -}}
{{- if eq .Values.mode "sidecar" -}}
app.kubernetes.io/name: {{ required "sidecar.application.name is required in sidecar mode" .Values.sidecar.application.name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- else -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
{{- end -}}

{{- define "schemawatch.configName" -}}{{ include "schemawatch.fullname" . }}-config{{- end -}}

{{/* A catalog's volume (DNS label) and ConfigMap names. */}}
{{- define "schemawatch.catalogVolume" -}}schemas-{{ . | lower | replace "_" "-" | replace "." "-" | trunc 55 | trimSuffix "-" }}{{- end -}}

{{/*
The schemawatch container, the same in both modes but for the readiness probe, which only the
standalone Deployment has: a sidecar never makes its application's pod NotReady.
*/}}
{{- define "schemawatch.container" -}}
- name: schemawatch
  image: {{ printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) | quote }}
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  args: [run, --config, /etc/schemawatch/config.yaml]
  ports:
    - name: metrics
      containerPort: {{ .Values.config.http.port | default 9464 }}
      protocol: TCP
  env:
    - name: NODE_OPTIONS
      value: {{ .Values.nodeOptions | quote }}
    {{- with .Values.extraEnv }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  resources:
    {{- toYaml .Values.resources | nindent 4 }}
  startupProbe:
    httpGet:
      path: /healthz
      port: metrics
    {{- toYaml .Values.probes.startup | nindent 4 }}
  livenessProbe:
    httpGet:
      path: /healthz
      port: metrics
    {{- toYaml .Values.probes.liveness | nindent 4 }}
  {{- if ne .Values.mode "sidecar" }}
  readinessProbe:
    httpGet:
      path: /readyz
      port: metrics
    {{- toYaml .Values.probes.readiness | nindent 4 }}
  {{- end }}
  securityContext:
    {{- toYaml .Values.securityContext | nindent 4 }}
  volumeMounts:
    - name: config
      mountPath: /etc/schemawatch/config.yaml
      subPath: config.yaml
      readOnly: true
    {{- range $name, $_ := .Values.schemas }}
    - name: {{ include "schemawatch.catalogVolume" $name }}
      mountPath: /etc/schemawatch/schemas/{{ $name }}
      readOnly: true
    {{- end }}
    - name: state
      mountPath: /var/lib/schemawatch
    - name: tmp
      mountPath: /tmp
{{- end -}}

{{/* The pod around it: its security context, volumes and the config's checksum (a change rolls the pods). */}}
{{- define "schemawatch.podTemplate" -}}
metadata:
  labels:
    {{- include "schemawatch.selectorLabels" . | nindent 4 }}
  annotations:
    checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
    {{- with .Values.podAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  serviceAccountName: {{ include "schemawatch.fullname" . }}
  automountServiceAccountToken: false
  securityContext:
    {{- toYaml .Values.podSecurityContext | nindent 4 }}
  terminationGracePeriodSeconds: {{ .Values.terminationGracePeriodSeconds }}
  {{- with .Values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  containers:
    {{- if eq .Values.mode "sidecar" }}
    {{- toYaml .Values.sidecar.application.containers | nindent 4 }}
    {{- end }}
    {{- include "schemawatch.container" . | nindent 4 }}
  volumes:
    - name: config
      configMap:
        name: {{ include "schemawatch.configName" . }}
    {{- range $name, $_ := .Values.schemas }}
    - name: {{ include "schemawatch.catalogVolume" $name }}
      configMap:
        name: {{ include "schemawatch.fullname" $ }}-{{ include "schemawatch.catalogVolume" $name }}
    {{- end }}
    - name: state
      emptyDir:
        sizeLimit: {{ .Values.stateSizeLimit }}
    - name: tmp
      emptyDir:
        sizeLimit: {{ .Values.tmpSizeLimit }}
  {{- with .Values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}
