-- A model call that completed without a usage report: a row of zero tokens, flagged so the
-- usage totals can say how many calls their figures leave out (never a guess charged).
ALTER TABLE `usage` ADD `unreported` integer DEFAULT false NOT NULL;
