// React's `lazy` for a module's named export (it takes only a default one): the component's code
// is a chunk of its own, loaded when first rendered. A chunk that cannot be downloaded renders
// `unavailable` (by default a notice with Reload) instead of an error that would blank the page.
import { type ComponentProps, type ComponentType, lazy, type LazyExoticComponent } from "react";
import { PartUnavailable } from "./PartUnavailable";

// `any` props as React's own `lazy` takes them: each component keeps its own props type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyComponent = ComponentType<any>;

export function lazyNamed<K extends string, C extends AnyComponent>(
  load: () => Promise<Record<K, C>>,
  name: K,
  unavailable: ComponentType<ComponentProps<C>> = PartUnavailable,
): LazyExoticComponent<C> {
  return lazy(async () => {
    try {
      return { default: (await load())[name] };
    } catch (error) {
      console.warn(`The app's ${name} could not be loaded:`, error);
      return { default: unavailable as C };
    }
  });
}
