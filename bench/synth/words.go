package synth

// Word lists the generator draws names and prose from. They are fixed: the
// output for a seed depends on them, so changing a list changes every
// catalog (the determinism test pins a digest to notice that).

var companies = []string{
	"Contoso", "Fabrikam", "Northwind", "Adatum", "Litware", "Tailspin",
	"Woodgrove", "Proseware", "Wingtip", "Relecloud", "Lamna", "Trey",
	"Alpine", "Coho", "Humongous", "Lucerne", "Margies", "Southridge",
	"Graphic", "Wideworld",
}

var areas = []string{
	"Data", "Compute", "Messaging", "Storage", "Network", "Security",
	"AI", "Observability", "Identity", "Platform", "Integration",
	"Analytics", "Edge", "Media", "Payments", "Search",
}

var typePrefixes = []string{
	"redis", "postgres", "mongo", "kafka", "blob", "queue", "topic", "cache",
	"search", "vector", "gateway", "stream", "ledger", "secret", "config",
	"batch", "cron", "lambda", "graph", "timeseries", "document", "object",
	"file", "event", "workflow", "model", "feature", "metric", "log", "trace",
	"dns", "cert", "key", "identity", "policy", "schema", "api", "edge",
	"media", "payment", "notification", "email", "sms", "webhook", "etl",
	"warehouse", "lake", "index",
}

var typeNouns = []string{
	"Caches", "Databases", "Clusters", "Queues", "Topics", "Buckets",
	"Stores", "Gateways", "Endpoints", "Pipelines", "Workers", "Jobs",
	"Indexes", "Vaults", "Certificates", "Brokers", "Services", "Functions",
	"Registries", "Zones", "Accounts", "Instances", "Pools", "Streams",
	"Namespaces", "Deployments", "Schedules", "Routes", "Volumes", "Projects",
}

var childNouns = []string{
	"queues", "replicas", "snapshots", "users", "policies", "partitions",
	"subscriptions", "shards", "databases", "consumers", "rules", "routes",
	"keys", "versions", "backups", "listeners",
}

var fragmentNames = []string{
	"backup", "networking", "scaling", "monitoring", "tls", "identity",
	"maintenanceWindow", "replication", "firewall", "logging", "alerts",
	"retention", "encryption", "ingress", "healthCheck", "resources",
	"linkages", "storage", "failover", "audit", "quotas", "secretRefs",
	"notifications", "caching", "throttling", "routing", "cors",
	"authentication", "metrics", "tracing", "snapshots", "lifecycle",
	"placement", "affinity", "tolerations", "volumes", "probes", "sidecars",
	"hooks", "migrations",
}

var nestedNames = []string{
	"settings", "policy", "target", "source", "credentials", "window",
	"limits", "requests", "selector", "options", "destination", "thresholds",
}

// verbs, adjectives and objects make the descriptions.
var verbs = []string{
	"Controls", "Configures", "Sets", "Defines", "Selects", "Limits",
	"Enables", "Describes", "Overrides", "Specifies",
}

var adjectives = []string{
	"primary", "secondary", "default", "regional", "zonal", "managed",
	"internal", "external", "dedicated", "shared", "encrypted", "replicated",
}

var objects = []string{
	"endpoint", "connection pool", "storage account", "network path",
	"deployment slot", "recipe output", "credential set", "maintenance plan",
	"retention window", "access policy", "scaling rule", "health probe",
	"message channel", "index layout", "backup schedule", "audit trail",
}

var clauses = []string{
	"Defaults to the platform setting when omitted.",
	"Changing this value triggers a redeployment of the recipe.",
	"Applied by the recipe that provisions the resource.",
	"Ignored when the environment does not support it.",
	"Must be unique within the application.",
	"Platform engineers can override this in the recipe parameters.",
	"Read by connected containers as an environment variable.",
	"Validated by Radius before the recipe runs.",
}
