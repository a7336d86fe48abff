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
{{- $redisMode := $v.externalRedis.mode | default "standalone" -}}
{{- if and (eq $redisMode "standalone") (gt (len ($v.externalRedis.nodes | default list)) 1) -}}
{{- fail "externalRedis.nodes lists several nodes: set externalRedis.mode to cluster (Redis Cluster) or sentinel (Sentinels)" -}}
{{- end -}}
{{- if and (eq $redisMode "standalone") (not $v.externalRedis.urlKey) (not $v.externalRedis.host) (not $v.externalRedis.nodes) -}}
{{- fail "externalRedis.host is required unless externalRedis.existingSecret/urlKey hold the whole REDIS_URL" -}}
{{- end -}}
{{- if and (ne $redisMode "standalone") (not $v.externalRedis.urlKey) (not $v.externalRedis.nodes) -}}
{{- fail (printf "externalRedis.nodes is required with externalRedis.mode=%s (%s), unless externalRedis.existingSecret/urlKey hold the whole REDIS_URL" $redisMode (ternary "the Sentinels" "some nodes of the cluster" (eq $redisMode "sentinel"))) -}}
{{- end -}}
{{- if and (eq $redisMode "sentinel") (not $v.externalRedis.sentinel.masterName) -}}
{{- fail "externalRedis.sentinel.masterName is required with externalRedis.mode=sentinel: the name the Sentinels know the primary by (REDIS_SENTINEL_NAME)" -}}
{{- end -}}
{{- if and (eq $redisMode "cluster") (ne (int $v.externalRedis.db) 0) -}}
{{- fail "externalRedis.db must be 0 with externalRedis.mode=cluster: a Redis Cluster has database 0 only" -}}
{{- end -}}
{{- if and (or $v.externalRedis.urlKey $v.externalRedis.sentinel.passwordKey) (not $v.externalRedis.existingSecret) -}}
{{- fail "externalRedis.urlKey and externalRedis.sentinel.passwordKey need externalRedis.existingSecret" -}}
{{- end -}}
{{- if and (not $v.externalNats.existingSecret) (not $v.externalNats.host) (not $v.externalNats.servers) -}}
{{- fail "externalNats.host (one server) or externalNats.servers (a cluster) is required unless externalNats.existingSecret/urlKey hold the whole NATS_URL" -}}
{{- end -}}
{{- $pgb := $v.externalDatabase.pgbouncer | default dict -}}
{{- if and $pgb.enabled (not $pgb.urlKey) (not $pgb.host) -}}
{{- fail "externalDatabase.pgbouncer.host is required with pgbouncer.enabled, unless pgbouncer.urlKey names a key of externalDatabase.existingSecret holding the services' whole DATABASE_URL" -}}
{{- end -}}
{{- if and $pgb.enabled (not $pgb.urlKey) $v.externalDatabase.urlKey (not $v.externalDatabase.passwordKey) -}}
{{- fail "externalDatabase.pgbouncer: give pgbouncer.urlKey (the pooler's whole URL) when the primary's URL comes whole from urlKey" -}}
{{- end -}}
{{- $replica := $v.externalDatabase.readReplica | default dict -}}
{{- if and $replica.enabled (not $replica.urlKey) (not $replica.host) -}}
{{- fail "externalDatabase.readReplica.host is required with readReplica.enabled, unless readReplica.urlKey names a key holding the whole DATABASE_READ_URL" -}}
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

{{/*
DATABASE_URL as env entries (secretKeyRef only, never an inlined secret).
Takes dict "root" $ "direct" <bool>: direct (the migrations Job) always reaches
the primary itself; the services go through PgBouncer when
externalDatabase.pgbouncer.enabled, and then also get
DATABASE_NAMED_STATEMENTS=off when the pooler cannot keep named prepared
statements (transaction mode, unless PgBouncer >= 1.21 with
max_prepared_statements: pgbouncer.preparedStatements).
*/}}
{{- define "er.env.database" -}}
{{- $db := .root.Values.externalDatabase -}}
{{- $pgb := $db.pgbouncer | default dict -}}
{{- $pooled := and $pgb.enabled (not .direct) -}}
{{- if and $pooled $pgb.urlKey }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $db.existingSecret | quote }}
      key: {{ $pgb.urlKey | quote }}
{{- else if and (not $pooled) $db.urlKey }}
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
  value: {{ printf "postgres://%s:$(DATABASE_PASSWORD)@%s:%v/%s%s" $db.user (ternary $pgb.host $db.host $pooled) (ternary $pgb.port $db.port $pooled) $db.database (ternary (printf "?sslmode=%s" $db.sslmode) "" (not (empty $db.sslmode))) | quote }}
{{- end }}
{{- if and $pooled (eq ($pgb.poolMode | default "transaction") "transaction") (not $pgb.preparedStatements) }}
- name: DATABASE_NAMED_STATEMENTS
  value: "off"
{{- end }}
{{- end -}}

{{/*
DATABASE_READ_URL of a service that reads snapshots (registry need
databaseRead), when externalDatabase.readReplica.enabled. Secret and keys
default to the primary's. Takes root.
*/}}
{{- define "er.env.databaseRead" -}}
{{- $db := .Values.externalDatabase -}}
{{- $r := $db.readReplica | default dict -}}
{{- if $r.enabled }}
{{- $secret := default $db.existingSecret $r.existingSecret -}}
{{- if $r.urlKey }}
- name: DATABASE_READ_URL
  valueFrom:
    secretKeyRef:
      name: {{ $secret | quote }}
      key: {{ $r.urlKey | quote }}
{{- else }}
- name: DATABASE_READ_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $secret | quote }}
      key: {{ default $db.passwordKey $r.passwordKey | quote }}
- name: DATABASE_READ_URL
  value: {{ printf "postgres://%s:$(DATABASE_READ_PASSWORD)@%s:%v/%s%s" (default $db.user $r.user) $r.host $r.port $db.database (ternary (printf "?sslmode=%s" $db.sslmode) "" (not (empty $db.sslmode))) | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/*
The Redis nodes as "host:port" strings: externalRedis.nodes (cluster nodes or
Sentinels), else host:port. Takes root; returns a JSON list.
*/}}
{{- define "er.redisNodes" -}}
{{- $r := .Values.externalRedis -}}
{{- $out := list -}}
{{- range ($r.nodes | default list) }}
{{- $out = append $out (printf "%s:%v" .host (.port | default (ternary 26379 6379 (eq ($r.mode | default "standalone") "sentinel")))) -}}
{{- end }}
{{- if not $out }}
{{- $out = list (printf "%s:%v" $r.host $r.port) -}}
{{- end }}
{{- toJson $out -}}
{{- end -}}

{{/*
Ports the Redis clients connect to: every node listed (or port), and in
sentinel mode also the primary's and replicas' ports the Sentinels hand out.
The cluster bus (port + 10000) is for nodes among themselves, never clients.
*/}}
{{- define "er.redisPorts" -}}
{{- $r := .Values.externalRedis -}}
{{- $ports := list -}}
{{- range ($r.nodes | default list) }}
{{- $ports = append $ports (int (.port | default (ternary 26379 6379 (eq ($r.mode | default "standalone") "sentinel")))) -}}
{{- end }}
{{- if not $ports }}
{{- $ports = list (int $r.port) -}}
{{- end }}
{{- if eq ($r.mode | default "standalone") "sentinel" }}
{{- range ($r.sentinel.dataPorts | default (list 6379)) }}
{{- $ports = append $ports (int .) -}}
{{- end }}
{{- end }}
{{- toJson ($ports | uniq) -}}
{{- end -}}

{{- define "er.env.redis" -}}
{{- $r := .Values.externalRedis -}}
{{- $mode := $r.mode | default "standalone" -}}
{{- $scheme := ternary "rediss" "redis" (default false $r.tls) -}}
{{- $nodes := include "er.redisNodes" . | fromJsonArray | join "," -}}
{{- /* A cluster has database 0 only: no /db there. */}}
{{- $db := ternary "" (printf "/%v" $r.db) (eq $mode "cluster") }}
- name: REDIS_MODE
  value: {{ $mode | quote }}
{{- if eq $mode "sentinel" }}
- name: REDIS_SENTINEL_NAME
  value: {{ $r.sentinel.masterName | quote }}
{{- if $r.sentinel.passwordKey }}
- name: REDIS_SENTINEL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $r.existingSecret | quote }}
      key: {{ $r.sentinel.passwordKey | quote }}
{{- end }}
{{- end }}
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
  value: {{ printf "%s://:$(REDIS_PASSWORD)@%s%s" $scheme $nodes $db | quote }}
{{- else }}
- name: REDIS_URL
  value: {{ printf "%s://%s%s" $scheme $nodes $db | quote }}
{{- end }}
- name: REDIS_PREFIX
  value: {{ $r.prefix | quote }}
{{- end -}}

{{/* The NATS servers as "host:port" strings: externalNats.servers, else host:port. Takes root; returns a JSON list. */}}
{{- define "er.natsServers" -}}
{{- $n := .Values.externalNats -}}
{{- $out := list -}}
{{- range ($n.servers | default list) }}
{{- $out = append $out (printf "%s:%v" .host (.port | default 4222)) -}}
{{- end }}
{{- if not $out }}
{{- $out = list (printf "%s:%v" $n.host $n.port) -}}
{{- end }}
{{- toJson $out -}}
{{- end -}}

{{/* Ports of the NATS servers (clients only: the cluster's route port 6222 is the servers' own). */}}
{{- define "er.natsPorts" -}}
{{- $ports := list -}}
{{- range (include "er.natsServers" . | fromJsonArray) }}
{{- $ports = append $ports (int (last (splitList ":" .))) -}}
{{- end }}
{{- toJson ($ports | uniq) -}}
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
{{- $scheme := ternary "tls" "nats" (default false $n.tls) }}
{{- $urls := list }}
{{- range (include "er.natsServers" . | fromJsonArray) }}
{{- $urls = append $urls (printf "%s://%s" $scheme .) }}
{{- end }}
- name: NATS_URL
  value: {{ $urls | join "," | quote }}
{{- end }}
- name: NATS_PREFIX
  value: {{ $n.prefix | quote }}
- name: NATS_STREAM_REPLICAS
  value: {{ $n.streamReplicas | default 1 | quote }}
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
{{- include "er.env.database" (dict "root" $root "direct" false) }}
{{- end }}
{{- if $w.databaseRead }}
{{- include "er.env.databaseRead" $root }}
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

{{/*
Egress rules to the external dependencies a component uses, and to DNS. Takes
dict "root" $ "wiring" W; W.direct (the migrations Job) reaches the Postgres
primary itself rather than PgBouncer.
*/}}
{{- define "er.dependencyEgress" -}}
{{- $v := .root.Values -}}
{{- $e := $v.networkPolicy.egress -}}
{{- $w := .wiring -}}
{{ include "er.egressRule" (dict "to" $e.dns.to "ports" (list 53) "protocol" "UDP") }}
{{ include "er.egressRule" (dict "to" $e.dns.to "ports" (list 53) "protocol" "TCP") }}
{{- $db := $v.externalDatabase }}
{{- $pooled := and $w.database ($db.pgbouncer | default dict).enabled (not $w.direct) }}
{{- if and $w.database (not $pooled) }}
{{ include "er.egressRule" (dict "to" $e.database.to "ports" (list $db.port)) }}
{{- end }}
{{- if $pooled }}
{{ include "er.egressRule" (dict "to" ($e.pgbouncer | default dict).to "ports" (list $db.pgbouncer.port)) }}
{{- end }}
{{- if and $w.databaseRead ($db.readReplica | default dict).enabled }}
{{ include "er.egressRule" (dict "to" ($e.readReplica | default dict).to "ports" (list $db.readReplica.port)) }}
{{- end }}
{{- if $w.redis }}
{{ include "er.egressRule" (dict "to" $e.redis.to "ports" (include "er.redisPorts" .root | fromJsonArray)) }}
{{- end }}
{{- if $w.nats }}
{{ include "er.egressRule" (dict "to" $e.nats.to "ports" (include "er.natsPorts" .root | fromJsonArray)) }}
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
