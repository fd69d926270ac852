// What a conversation keeps of the template it was started from: the model sees the system
// prompt (variables filled per request) and the starting messages before the conversation's own.
import { z } from "zod";

export const TemplateMessage = z
  .object({
    role: z.enum(["user", "assistant"]),
    content: z.string().trim().min(1).max(20_000),
  })
  .strict();
export type TemplateMessage = z.infer<typeof TemplateMessage>;

export const TemplateContext = z
  .object({
    templateId: z.string().min(1).max(100),
    name: z.string().min(1).max(100),
    // May hold {{model}}, {{provider}}, {{date}}, {{time}}, {{lang}} (filled on each request).
    systemPrompt: z.string().max(20_000),
    messages: z.array(TemplateMessage).max(10),
  })
  .strict();
export type TemplateContext = z.infer<typeof TemplateContext>;
