// Whether the open artifact may be edited: only the conversation's owner may (members get 403),
// so viewers deep in the pane hide their Edit button without every viewer taking a prop.
import { createContext } from "react";

export const ArtifactEditingAllowed = createContext(true);

/**
 * Whether the open artifact was deleted (in another tab, or by the owner) while it was shown: the
 * pane keeps its last version on screen, and an edit in progress keeps its text to copy, but
 * nothing can be saved any more.
 */
export const ArtifactDeleted = createContext(false);
