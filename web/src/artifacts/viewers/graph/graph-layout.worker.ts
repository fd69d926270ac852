// Lays out a knowledge graph off the main thread: a force simulation over hundreds of nodes takes
// longer than a frame, and the page must keep answering while it runs.
import { answerLayoutRequest } from "./layout-request";

self.onmessage = (event: MessageEvent<unknown>) => {
  self.postMessage(answerLayoutRequest(event.data));
};
