-- Full-text search over the text parts of messages (issue 20). Hand-written: drizzle-kit does not
-- model FTS5 virtual tables or triggers. The index holds only what a reader sees (the "text"
-- parts of messages.content, which is a JSON MessagePart[]), keyed by the message's rowid, and
-- the triggers keep it in step with every insert, upsert and delete (cascades included).
CREATE VIRTUAL TABLE `messages_fts` USING fts5(`body`, `conversation_id` UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `messages_fts` (`rowid`, `body`, `conversation_id`)
SELECT `m`.`rowid`,
  (SELECT coalesce(group_concat(json_extract(`p`.`value`, '$.text'), char(10)), '')
     FROM json_each(CASE WHEN json_valid(`m`.`content`) AND json_type(`m`.`content`) = 'array' THEN `m`.`content` ELSE '[]' END) AS `p`
    WHERE json_extract(`p`.`value`, '$.type') = 'text'),
  `m`.`conversation_id`
FROM `messages` AS `m`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_insert` AFTER INSERT ON `messages` BEGIN
  INSERT INTO `messages_fts` (`rowid`, `body`, `conversation_id`)
  VALUES (
    new.`rowid`,
    (SELECT coalesce(group_concat(json_extract(`p`.`value`, '$.text'), char(10)), '')
       FROM json_each(CASE WHEN json_valid(new.`content`) AND json_type(new.`content`) = 'array' THEN new.`content` ELSE '[]' END) AS `p`
      WHERE json_extract(`p`.`value`, '$.type') = 'text'),
    new.`conversation_id`
  );
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF `content` ON `messages` BEGIN
  DELETE FROM `messages_fts` WHERE `rowid` = old.`rowid`;
  INSERT INTO `messages_fts` (`rowid`, `body`, `conversation_id`)
  VALUES (
    new.`rowid`,
    (SELECT coalesce(group_concat(json_extract(`p`.`value`, '$.text'), char(10)), '')
       FROM json_each(CASE WHEN json_valid(new.`content`) AND json_type(new.`content`) = 'array' THEN new.`content` ELSE '[]' END) AS `p`
      WHERE json_extract(`p`.`value`, '$.type') = 'text'),
    new.`conversation_id`
  );
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_delete` AFTER DELETE ON `messages` BEGIN
  DELETE FROM `messages_fts` WHERE `rowid` = old.`rowid`;
END;
