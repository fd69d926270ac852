CREATE TABLE `provider_checks` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`reachable` integer NOT NULL,
	`latency_ms` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `provider_checks_provider_idx` ON `provider_checks` (`provider`,`created_at`);