// Whether the open artifact may be edited: only the conversation's owner may (members get 403),
// so viewers deep in the pane hide their Edit button without every viewer taking a prop.
import { createContext } from "react";

export const ArtifactEditingAllowed = createContext(true);
