// React's `lazy` for a module's named export (it takes only a default one): the component's code
// is a chunk of its own, loaded when first rendered.
import { type ComponentType, lazy, type LazyExoticComponent } from "react";

// `any` props as React's own `lazy` takes them: each component keeps its own props type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyComponent = ComponentType<any>;

export function lazyNamed<K extends string, C extends AnyComponent>(
  load: () => Promise<Record<K, C>>,
  name: K,
): LazyExoticComponent<C> {
  return lazy(async () => ({ default: (await load())[name] }));
}
