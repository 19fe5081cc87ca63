// Validates Kubernetes objects against the schemas of the kubernetes-models packages (package.json).
// Reads a JSON array of objects on standard input; writes a JSON array of problems, one per wrong field:
// {"object": "Kind name", "path": "/spec/...", "problem": "..."} (empty: every object matches its schema).
//
// The models' validators check types, enums, formats and required fields, but let unknown fields through,
// where kubectl apply (strict field validation) refuses them. So each object is validated through proxies
// that note the fields the validator looks up: a field of an object whose schema names its fields (the
// validator looked some up) and that the validator never looked up is not in the schema.
//
// kubernetes-models 5 declares Node.js 22 or later; it runs on Node.js 20 as these machines have it (npm only warns).

const PACKAGES = ['kubernetes-models', '@kubernetes-models/prometheus-operator', '@kubernetes-models/cert-manager'];

async function modelOf(apiVersion, kind) {
  if (!/^([a-z0-9.-]+\/)?v[a-z0-9]+$/.test(apiVersion) || !/^[A-Za-z0-9]+$/.test(kind)) return undefined;
  for (const pkg of PACKAGES) {
    try {
      const model = (await import(`${pkg}/${apiVersion}/${kind}`))[kind];
      if (model && model.apiVersion === apiVersion && model.kind === kind) return model;
    } catch (e) {
      if (e.code !== 'ERR_MODULE_NOT_FOUND' && e.code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw e;
    }
  }
  return undefined;
}

/** {@code value} behind proxies that note, in {@code lookups}, what is looked up of each object. */
function traced(value, lookups) {
  if (value === null || typeof value !== 'object') return value;
  const noted = { names: new Set(), enumerated: false };
  lookups.set(value, noted);
  const children = new Map();
  return new Proxy(value, {
    get(target, key, receiver) {
      const child = Reflect.get(target, key, receiver);
      if (typeof key !== 'string') return child;
      noted.names.add(key);
      if (!Object.hasOwn(target, key) || child === null || typeof child !== 'object') return child;
      if (!children.has(key)) children.set(key, traced(child, lookups));
      return children.get(key);
    },
    has(target, key) {
      noted.names.add(key);
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      noted.names.add(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      // a map (labels, data) or extra properties checked one by one: every key is the schema's business
      noted.enumerated = true;
      return Reflect.ownKeys(target);
    },
  });
}

function pointer(path, key) {
  return `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** The fields of {@code value} the validator never looked up in an object whose fields it knows. */
function unknownFields(value, lookups, path, found) {
  if (value === null || typeof value !== 'object') return found;
  const noted = lookups.get(value);
  if (!noted) return found; // free-form (preserved unknown fields): the validator did not go in
  for (const [key, child] of Object.entries(value)) {
    const at = pointer(path, key);
    if (!Array.isArray(value) && !noted.enumerated && noted.names.size > 0 && !noted.names.has(key)) {
      found.push({ path: at, problem: 'is not a field of the schema' });
    } else {
      unknownFields(child, lookups, at, found);
    }
  }
  return found;
}

async function problems(object) {
  const model = await modelOf(object.apiVersion, object.kind);
  if (!model) return [{ path: '', problem: `no schema for apiVersion ${object.apiVersion}, kind ${object.kind}` }];
  const lookups = new Map();
  const found = [];
  try {
    model.prototype.validate.call(traced(object, lookups));
  } catch (e) {
    if (!Array.isArray(e.errors)) throw e;
    for (const error of e.errors) {
      const detail = error.params?.allowedValues ? `: ${error.params.allowedValues.join(', ')}` : '';
      found.push({ path: error.instancePath, problem: error.message + detail });
    }
  }
  unknownFields(object, lookups, '', found);
  // a validator reports some errors twice (once per schema reference that reaches the field)
  return [...new Map(found.map((p) => [`${p.path} ${p.problem}`, p])).values()];
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const report = [];
for (const object of JSON.parse(Buffer.concat(chunks).toString('utf8'))) {
  const name = `${object.kind} ${object.metadata?.name}`;
  for (const p of await problems(object)) report.push({ object: name, ...p });
}
process.stdout.write(JSON.stringify(report) + '\n');
