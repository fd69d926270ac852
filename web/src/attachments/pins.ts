// Which artifacts are pinned, and a way to pin one, for controls outside the artifact pane (the
// files shown in a message). The app provides it; without it those controls offer no pin.
import { createContext, useContext } from "react";

export interface Pins {
  pinnedIds: ReadonlySet<string>;
  /** Pins or unpins through the API; rejects with the failure. */
  setPinned: (artifactId: string, pinned: boolean) => Promise<void>;
}

export const PinsContext = createContext<Pins | null>(null);

export const usePins = () => useContext(PinsContext);
