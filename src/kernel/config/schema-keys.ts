/**
 * The parts of a zod schema's definition that lead to the objects inside it. Only what a walk
 * along a value's path needs; every other kind of schema ends the walk.
 */
interface SchemaNode {
  _zod: {
    def: {
      type: string;
      shape?: Record<string, SchemaNode>;
      valueType?: SchemaNode;
      element?: SchemaNode;
      items?: SchemaNode[];
      innerType?: SchemaNode;
      options?: SchemaNode[];
      in?: SchemaNode;
      left?: SchemaNode;
      right?: SchemaNode;
      getter?: () => SchemaNode;
    };
  };
}

/**
 * The keys the schema knows for the object at `path` of a value: the shape's keys, from every
 * object a union, intersection or wrapper could put there. Records and arrays are walked through
 * by their entries, so `plugins.demo` answers the keys of a plugin's settings.
 */
export function knownKeysAt(schema: unknown, path: readonly (string | number)[]): string[] {
  const keys = new Set<string>();
  const visit = (node: SchemaNode | undefined, depth: number): void => {
    if (!node) return;
    const def = node._zod.def;
    const part = path[depth];
    switch (def.type) {
      case "object":
        if (depth === path.length) for (const key of Object.keys(def.shape ?? {})) keys.add(key);
        else if (typeof part === "string" && def.shape && Object.hasOwn(def.shape, part)) visit(def.shape[part], depth + 1);
        return;
      case "record":
        if (depth < path.length) visit(def.valueType, depth + 1);
        return;
      case "array":
        if (typeof part === "number") visit(def.element, depth + 1);
        return;
      case "tuple":
        if (typeof part === "number") visit(def.items?.[part], depth + 1);
        return;
      case "union":
        for (const option of def.options ?? []) visit(option, depth);
        return;
      case "intersection":
        visit(def.left, depth);
        visit(def.right, depth);
        return;
      case "pipe":
        visit(def.in, depth);
        return;
      case "lazy":
        visit(def.getter?.(), depth);
        return;
      default:
        // optional, nullable, default, readonly, catch…: the schema they wrap.
        visit(def.innerType, depth);
    }
  };
  visit(schema as SchemaNode, 0);
  return [...keys];
}
