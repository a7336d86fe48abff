{{/*
Shared helpers. Most templates loop over .Values.services and call these with a
"component context":  dict "root" $ "name" <service name> "svc" <its values>.
*/}}

{{- define "er.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
Prefix of every object name: the release name (or fullnameOverride), so the
gateway of release "er" is er-gateway and its upstreams are er-record etc.
*/}}
{{- define "er.fullname" -}}
{{- default .Release.Name .Values.fullnameOverride | trunc 50 | trimSuffix "-" -}}
{{- end -}}

{{/* <release>-<service>, e.g. er-gateway. Takes a component context. */}}
{{- define "er.componentName" -}}
{{- printf "%s-%s" (include "er.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "er.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels shared by every object of the release. Takes the root context. */}}
{{- define "er.commonLabels" -}}
helm.sh/chart: {{ include "er.chart" . }}
app.kubernetes.io/name: {{ include "er.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: evidence-record
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Selects every pod of the release (used by the default-deny policy). */}}
{{- define "er.releaseSelectorLabels" -}}
app.kubernetes.io/name: {{ include "er.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* Selects one component's pods. Takes a component context. */}}
{{- define "er.selectorLabels" -}}
{{ include "er.releaseSelectorLabels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "er.labels" -}}
{{ include "er.commonLabels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "er.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "er.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
Image reference. Takes dict "root" $ "override" <image values or empty dict>.
*/}}
{{- define "er.image" -}}
{{- $img := mergeOverwrite (deepCopy .root.Values.image) (.override | default dict) -}}
{{- if $img.digest -}}
{{- printf "%s@%s" $img.repository $img.digest -}}
{{- else -}}
{{- printf "%s:%s" $img.repository (toString (default .root.Chart.AppVersion $img.tag)) -}}
{{- end -}}
{{- end -}}

{{- define "er.imagePullPolicy" -}}
{{- $img := mergeOverwrite (deepCopy .root.Values.image) (.override | default dict) -}}
{{- $img.pullPolicy -}}
{{- end -}}

{{/*
values.services with what the registry knows filled in (each service's port
unless its block sets one), as YAML. Fails on a block the registry does not
know and on a registry service without a block. The wiring itself
("er.wiring") is generated from services/registry/src/registry.ts into
_registry.tpl.
*/}}
{{- define "er.services" -}}
{{- $all := include "er.wiring" . | fromYaml -}}
{{- $out := dict -}}
{{- range $name, $svc := .Values.services -}}
{{- if not (hasKey $all $name) -}}
{{- fail (printf "services.%s: unknown service; the registry (services/registry/src/registry.ts) has %s" $name (keys $all | sortAlpha | join ", ")) -}}
{{- end -}}
{{- $w := index $all $name -}}
{{- $facts := dict -}}
{{- if $w.port }}{{ $_ := set $facts "port" $w.port }}{{ end -}}
{{- $_ := set $out $name (mergeOverwrite $facts (deepCopy ($svc | default dict))) -}}
{{- end -}}
{{- range $name, $_ := $all -}}
{{- if not (hasKey $.Values.services $name) -}}
{{- fail (printf "services.%s: the registry declares this service but values.yaml has no block for it" $name) -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* Wiring of one component as a dict. Takes a component context. */}}
{{- define "er.wiringOf" -}}
{{- $all := include "er.wiring" . | fromYaml -}}
{{- if not (hasKey $all .name) -}}
{{- fail (printf "services.%s: unknown service; known services are %s" .name (keys $all | sortAlpha | join ", ")) -}}
{{- end -}}
{{- toYaml (index $all .name) -}}
{{- end -}}

{{/* In-cluster URL of a component: http://<release>-<name>:<port>. Takes dict "root" $ "name" N. */}}
{{- define "er.componentUrl" -}}
{{- $svc := index (include "er.services" .root | fromYaml) .name -}}
{{- printf "http://%s:%v" (include "er.componentName" .) $svc.port -}}
{{- end -}}

{{/* Fails with a readable message when a value the SRE must set is missing. */}}
{{- define "er.validate" -}}
{{- $v := .Values -}}
{{- if not $v.publicBaseUrl -}}
{{- fail "publicBaseUrl is required: the public address clients use, e.g. https://api.example.com" -}}
{{- end -}}
{{- if not $v.externalDatabase.existingSecret -}}
{{- fail "externalDatabase.existingSecret is required: a Secret holding the Postgres URL (urlKey) or password (passwordKey)" -}}
{{- end -}}
{{- if and (not $v.externalDatabase.urlKey) (not $v.externalDatabase.host) -}}
{{- fail "externalDatabase.host is required unless externalDatabase.urlKey names a key holding the whole DATABASE_URL" -}}
{{- end -}}
{{- if and (not $v.externalRedis.urlKey) (not $v.externalRedis.host) -}}
{{- fail "externalRedis.host is required unless externalRedis.existingSecret/urlKey hold the whole REDIS_URL" -}}
{{- end -}}
{{- if and $v.externalRedis.urlKey (not $v.externalRedis.existingSecret) -}}
{{- fail "externalRedis.urlKey needs externalRedis.existingSecret" -}}
{{- end -}}
{{- if and (not $v.externalNats.existingSecret) (not $v.externalNats.host) -}}
{{- fail "externalNats.host is required unless externalNats.existingSecret/urlKey hold the whole NATS_URL" -}}
{{- end -}}
{{- if not $v.smtp.existingSecret -}}
{{- fail "smtp.existingSecret is required: a Secret whose smtp.urlKey holds SMTP_URL (it may carry credentials)" -}}
{{- end -}}
{{- if not $v.smtp.from -}}
{{- fail "smtp.from is required: the MAIL_FROM address of watch alert e-mails" -}}
{{- end -}}
{{- end -}}

{{/* Name of the Secret holding each service's <NAME>_SIGNING_KEYS (one entry per service). */}}
{{- define "er.signingSecretName" -}}
{{- default (printf "%s-internal-signing" (include "er.fullname" .)) .Values.internalSigning.existingSecret -}}
{{- end -}}

{{/* Name of the Secret holding CURSOR_SECRET. */}}
{{- define "er.cursorSecretName" -}}
{{- default (printf "%s-cursor" (include "er.fullname" .)) .Values.cursorSecret.existingSecret -}}
{{- end -}}

{{/* Name of the Secret holding CONSOLE_SESSION_SECRET. */}}
{{- define "er.consoleSessionSecretName" -}}
{{- default (printf "%s-console-session" (include "er.fullname" .)) .Values.consoleSessionSecret.existingSecret -}}
{{- end -}}

{{/* Name of the Secret holding the unsubscribe signing key. */}}
{{- define "er.unsubscribeSecretName" -}}
{{- default (printf "%s-unsubscribe" (include "er.fullname" .)) .Values.unsubscribeSigningKey.existingSecret -}}
{{- end -}}

{{/* DATABASE_URL as env entries (secretKeyRef only, never an inlined secret). Takes root. */}}
{{- define "er.env.database" -}}
{{- $db := .Values.externalDatabase -}}
{{- if $db.urlKey }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $db.existingSecret | quote }}
      key: {{ $db.urlKey | quote }}
{{- else }}
- name: DATABASE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $db.existingSecret | quote }}
      key: {{ $db.passwordKey | quote }}
- name: DATABASE_URL
  value: {{ printf "postgres://%s:$(DATABASE_PASSWORD)@%s:%v/%s%s" $db.user $db.host $db.port $db.database (ternary (printf "?sslmode=%s" $db.sslmode) "" (not (empty $db.sslmode))) | quote }}
{{- end }}
{{- end -}}

{{- define "er.env.redis" -}}
{{- $r := .Values.externalRedis -}}
{{- $scheme := ternary "rediss" "redis" (default false $r.tls) -}}
{{- if $r.urlKey }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ $r.existingSecret | quote }}
      key: {{ $r.urlKey | quote }}
{{- else if $r.existingSecret }}
- name: REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $r.existingSecret | quote }}
      key: {{ $r.passwordKey | quote }}
- name: REDIS_URL
  value: {{ printf "%s://:$(REDIS_PASSWORD)@%s:%v/%v" $scheme $r.host $r.port $r.db | quote }}
{{- else }}
- name: REDIS_URL
  value: {{ printf "%s://%s:%v/%v" $scheme $r.host $r.port $r.db | quote }}
{{- end }}
- name: REDIS_PREFIX
  value: {{ $r.prefix | quote }}
{{- end -}}

{{- define "er.env.nats" -}}
{{- $n := .Values.externalNats -}}
{{- if $n.existingSecret }}
- name: NATS_URL
  valueFrom:
    secretKeyRef:
      name: {{ $n.existingSecret | quote }}
      key: {{ $n.urlKey | quote }}
{{- else }}
- name: NATS_URL
  value: {{ printf "nats://%s:%v" $n.host $n.port | quote }}
{{- end }}
- name: NATS_PREFIX
  value: {{ $n.prefix | quote }}
{{- end -}}

{{/* Host[:port] and origin of publicBaseUrl, the defaults for the MCP allow-lists. */}}
{{- define "er.publicHost" -}}
{{- (urlParse .Values.publicBaseUrl).host -}}
{{- end -}}
{{- define "er.publicOrigin" -}}
{{- $u := urlParse .Values.publicBaseUrl -}}
{{- printf "%s://%s" $u.scheme $u.host -}}
{{- end -}}

{{/* Every env var of one component. Takes a component context. */}}
{{- define "er.env" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $w := include "er.wiringOf" . | fromYaml -}}
- name: NODE_ENV
  value: production
{{- if $w.http }}
- name: PORT
  value: {{ .svc.port | quote }}
{{- end }}
- name: LISTEN_HOST
  value: "0.0.0.0"
- name: LOG_LEVEL
  value: {{ $v.logLevel | quote }}
- name: SHUTDOWN_GRACE_MS
  value: {{ $v.shutdownGraceMs | quote }}
{{- with $v.otel.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ printf "evidence-record-%s" $.name | quote }}
{{- end }}
{{- if $w.publicBaseUrl }}
- name: PUBLIC_BASE_URL
  value: {{ $v.publicBaseUrl | quote }}
{{- end }}
{{- if $w.database }}
{{- include "er.env.database" $root }}
{{- end }}
{{- if $w.redis }}
{{- include "er.env.redis" $root }}
{{- end }}
{{- if $w.nats }}
{{- include "er.env.nats" $root }}
{{- end }}
{{- if $w.cursor }}
- name: CURSOR_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "er.cursorSecretName" $root | quote }}
      key: {{ $v.cursorSecret.key | quote }}
{{- end }}
{{- if $w.consoleSession }}
- name: CONSOLE_SESSION_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "er.consoleSessionSecretName" $root | quote }}
      key: {{ $v.consoleSessionSecret.key | quote }}
{{- end }}
{{- range $w.signingKeys }}
- name: {{ printf "%s_SIGNING_KEYS" (. | upper | replace "-" "_") }}
  valueFrom:
    secretKeyRef:
      name: {{ include "er.signingSecretName" $root | quote }}
      key: {{ . | quote }}
{{- end }}
{{- if $w.unsubscribe }}
- name: UNSUBSCRIBE_SIGNING_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "er.unsubscribeSecretName" $root | quote }}
      key: {{ $v.unsubscribeSigningKey.key | quote }}
{{- if and (eq $w.unsubscribe "verify") $v.unsubscribeSigningKey.previousKey }}
- name: UNSUBSCRIBE_SIGNING_KEY_PREVIOUS
  valueFrom:
    secretKeyRef:
      name: {{ include "er.unsubscribeSecretName" $root | quote }}
      key: {{ $v.unsubscribeSigningKey.previousKey | quote }}
{{- end }}
{{- end }}
{{- if $w.smtp }}
- name: SMTP_URL
  valueFrom:
    secretKeyRef:
      name: {{ $v.smtp.existingSecret | quote }}
      key: {{ $v.smtp.urlKey | quote }}
- name: MAIL_FROM
  value: {{ $v.smtp.from | quote }}
{{- end }}
{{- range $callee := ($w.calls | default list) }}
- name: {{ printf "%s_URL" (upper $callee | replace "-" "_") }}
  value: {{ include "er.componentUrl" (dict "root" $root "name" $callee) | quote }}
{{- end }}
{{- if eq .name "gateway" }}
- name: GATEWAY_PORT
  value: {{ .svc.port | quote }}
{{- /* The gateway refuses an /mcp request from a Host or Origin not ours before its key is read: the MCP service's lists and rule (decision 0602). */}}
- name: MCP_ALLOWED_HOSTS
  value: {{ (default (list (include "er.publicHost" $root)) $v.services.mcp.allowedHosts) | join "," | quote }}
- name: MCP_ALLOWED_ORIGINS
  value: {{ (default (list (include "er.publicOrigin" $root)) $v.services.mcp.allowedOrigins) | join "," | quote }}
{{- end }}
{{- if eq .name "mcp" }}
- name: MCP_ALLOWED_HOSTS
  value: {{ (default (list (include "er.publicHost" $root)) .svc.allowedHosts) | join "," | quote }}
- name: MCP_ALLOWED_ORIGINS
  value: {{ (default (list (include "er.publicOrigin" $root)) .svc.allowedOrigins) | join "," | quote }}
{{- end }}
{{- with $v.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- with .svc.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* The three probes. Takes a component context. */}}
{{- define "er.probes" -}}
{{- $p := mergeOverwrite (deepCopy .root.Values.probes) (.svc.probes | default dict) -}}
startupProbe:
  httpGet:
    path: /healthz
    port: http
  {{- toYaml $p.startup | nindent 2 }}
readinessProbe:
  httpGet:
    path: /readyz
    port: http
  {{- toYaml $p.readiness | nindent 2 }}
livenessProbe:
  httpGet:
    path: /healthz
    port: http
  {{- toYaml $p.liveness | nindent 2 }}
{{- end -}}

{{/* The writable /tmp. */}}
{{- define "er.tmpVolume" -}}
- name: tmp
  emptyDir:
    {{- with .Values.tmpVolume.sizeLimit }}
    sizeLimit: {{ . }}
    {{- end }}
{{- end -}}

{{/*
One egress rule: dict "to" <peer list> "ports" <list of ports> "protocol" P.
An empty peer list allows the ports to any destination.
*/}}
{{- define "er.egressRule" -}}
- ports:
    {{- range .ports }}
    - protocol: {{ $.protocol | default "TCP" }}
      port: {{ . }}
    {{- end }}
  {{- with .to }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}

{{/* Egress rules to the external dependencies a component uses, and to DNS. Takes dict "root" $ "wiring" W. */}}
{{- define "er.dependencyEgress" -}}
{{- $v := .root.Values -}}
{{- $e := $v.networkPolicy.egress -}}
{{- $w := .wiring -}}
{{ include "er.egressRule" (dict "to" $e.dns.to "ports" (list 53) "protocol" "UDP") }}
{{ include "er.egressRule" (dict "to" $e.dns.to "ports" (list 53) "protocol" "TCP") }}
{{- if $w.database }}
{{ include "er.egressRule" (dict "to" $e.database.to "ports" (list $v.externalDatabase.port)) }}
{{- end }}
{{- if $w.redis }}
{{ include "er.egressRule" (dict "to" $e.redis.to "ports" (list $v.externalRedis.port)) }}
{{- end }}
{{- if $w.nats }}
{{ include "er.egressRule" (dict "to" $e.nats.to "ports" (list $v.externalNats.port)) }}
{{- end }}
{{- if $w.smtp }}
{{ include "er.egressRule" (dict "to" $e.smtp.to "ports" $v.smtp.ports) }}
{{- end }}
{{- if $w.internet }}
{{- $to := list (dict "ipBlock" (dict "cidr" "0.0.0.0/0" "except" $e.internet.except)) }}
{{- if $e.internet.exceptV6 }}
{{- $to = append $to (dict "ipBlock" (dict "cidr" "::/0" "except" $e.internet.exceptV6)) }}
{{- end }}
{{ include "er.egressRule" (dict "to" $to "ports" $e.internet.ports) }}
{{- end }}
{{- with $e.extra }}
{{ toYaml . }}
{{- end }}
{{- end -}}
