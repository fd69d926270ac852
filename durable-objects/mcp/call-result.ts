// The schema a tool call's result is read with: the SDK's, except that an embedded resource keeps
// the fields the spec does not name. Servers often give what they embed a `title` or `name`, and
// the SDK's schema drops both, leaving only the address to title the user's artifact by.
import {
  AudioContentSchema,
  BlobResourceContentsSchema,
  CallToolResultSchema,
  EmbeddedResourceSchema,
  ImageContentSchema,
  ResourceLinkSchema,
  TextContentSchema,
  TextResourceContentsSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const EmbeddedResourceKeepingNames = EmbeddedResourceSchema.extend({
  resource: z.union([TextResourceContentsSchema.loose(), BlobResourceContentsSchema.loose()]),
});

export const ToolCallResultSchema = CallToolResultSchema.extend({
  content: z
    .array(
      z.union([
        TextContentSchema,
        ImageContentSchema,
        AudioContentSchema,
        ResourceLinkSchema,
        EmbeddedResourceKeepingNames,
      ]),
    )
    .default([]),
});
