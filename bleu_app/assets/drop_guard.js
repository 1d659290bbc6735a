// The app's file uploaders, guarded in the browser (installed by bleu_app/widgets/_drop_guard.py
// once per uploader, which fills in CONFIG). Streamlit's uploader draws a chip per file and draws them all again as
// each file is sent, so its work grows with the square of the files (1,000 files: a minute of a
// busy tab; 10,000: it never settles). Here, before the uploader sees them, files given at once
// (dropped, or chosen in the file dialog) are:
//   - refused with a message when there are more than CONFIG.limit of them (nothing is sent);
//   - from CONFIG.bundleFrom on, packed into tar archives of at most CONFIG.maxBytes each, which
//     the uploader sends as one file each and the server unpacks (bleu/io/archive.py).
// Listeners sit on window in the capture phase, so they run before React's, once per tab.
(() => {
  const config = __CONFIG__;
  const guard = window.__bleuDropGuard || { configs: {}, ours: new WeakSet() };
  guard.configs[config.key] = config;  // again on a rerun: the wording follows the language
  if (window.__bleuDropGuard) return;
  window.__bleuDropGuard = guard;

  // the uploader a node is in, and its settings
  const zoneOf = (node) => {
    if (!(node instanceof Element)) return null;
    for (const settings of Object.values(guard.configs)) {
      const zone = node.closest(`.st-key-${settings.key}`);
      if (zone) return { zone, settings };
    }
    return null;
  };

  // the refusal, in this guard's own element under the uploader (text only, never HTML)
  const say = (settings, count) => {
    const box = document.getElementById(settings.messageId);
    if (!box) return;
    const grouped = String(count).replace(/\B(?=(\d{3})+(?!\d))/g, settings.group);
    box.textContent = count === null ? "" : settings.message.replace("{n}", grouped);
    box.hidden = count === null;
  };

  // a tar archive (POSIX ustar; a pax header carries a name that is long or not ASCII)
  const encoder = new TextEncoder();
  const octal = (value, width) => value.toString(8).padStart(width - 1, "0") + "\0";
  const header = (name, size, type) => {
    const block = new Uint8Array(512);
    const put = (text, offset) => block.set(encoder.encode(text), offset);
    put(name, 0);
    put(octal(0o644, 8), 100);
    put(octal(0, 8), 108);
    put(octal(0, 8), 116);
    put(octal(size, 12), 124);
    put(octal(Math.floor(Date.now() / 1000), 12), 136);
    put("        ", 148);
    put(type, 156);
    put("ustar\0" + "00", 257);
    const sum = block.reduce((total, byte) => total + byte, 0);
    put(sum.toString(8).padStart(6, "0") + "\0 ", 148);
    return block;
  };
  const padding = (size) => new Uint8Array((512 - (size % 512)) % 512);
  const paxRecord = (name) => {
    const body = ` path=${name}\n`;
    const bodyBytes = encoder.encode(body).length;
    let length = bodyBytes + 1;
    while (String(length).length + bodyBytes !== length) length = String(length).length + bodyBytes;
    return encoder.encode(length + body);
  };
  const entry = async (file, index) => {
    const name = file.name;
    const plain = /^[\x20-\x7e]*$/.test(name) && encoder.encode(name).length < 100;
    const parts = [];
    if (!plain) {
      const record = paxRecord(name);
      parts.push(header(`PaxHeaders/${index}`, record.length, "x"), record, padding(record.length));
    }
    const fallback = plain ? name : `file-${index}`;
    parts.push(header(fallback, file.size, "0"), new Uint8Array(await file.arrayBuffer()),
               padding(file.size));
    return parts;
  };
  const tar = async (files, name) => {
    const parts = [];
    for (let index = 0; index < files.length; index++) parts.push(...await entry(files[index], index));
    parts.push(new Uint8Array(1024));
    return new File(parts, name, { type: "application/x-tar" });
  };

  // the files in archives of at most maxBytes (a file larger than that goes as it is, for the
  // uploader to refuse with its own message)
  const bundles = async (files, settings) => {
    const groups = [[]];
    let bytes = 1024;
    const alone = [];
    for (const file of files) {
      const cost = file.size + 1536 + (file.size % 512 ? 512 : 0);
      if (cost + 1024 > settings.maxBytes) { alone.push(file); continue; }
      if (bytes + cost > settings.maxBytes && groups[groups.length - 1].length) {
        groups.push([]);
        bytes = 1024;
      }
      groups[groups.length - 1].push(file);
      bytes += cost;
    }
    const named = groups.filter((group) => group.length);
    const made = [];
    for (let k = 0; k < named.length; k++) {
      const suffix = named.length > 1 ? ` ${k + 1}` : "";
      made.push(await tar(named[k], `${settings.bundleName}${suffix}.tar`));
    }
    return [...made, ...alone];
  };

  // hand files to the uploader as if they had been chosen in its file dialog
  const deliver = (input, files) => {
    const transfer = new DataTransfer();
    files.forEach((file) => transfer.items.add(file));
    input.files = transfer.files;
    const event = new Event("change", { bubbles: true });
    guard.ours.add(event);
    input.dispatchEvent(event);
  };
  // end the uploader's "drag and drop files here" state, sending nothing
  const endDrag = (target) => {
    const event = new DragEvent("drop", { bubbles: true, cancelable: true,
                                          dataTransfer: new DataTransfer() });
    guard.ours.add(event);
    target.dispatchEvent(event);
  };

  // true: the uploader takes the files as they are
  const handle = (settings, files, input) => {
    if (files.length > settings.limit) {
      say(settings, files.length);
      return false;
    }
    say(settings, null);
    if (files.length < settings.bundleFrom) return true;
    // a file that cannot be read here (moved since it was chosen) goes as it is: the uploader
    // and the server then say what is wrong with it
    bundles(files, settings).then((packed) => deliver(input, packed),
                                  () => deliver(input, files));
    return false;
  };

  window.addEventListener("change", (event) => {
    const input = event.target;
    const found = zoneOf(input);
    if (guard.ours.has(event) || !found || !(input instanceof HTMLInputElement)
        || input.type !== "file") return;
    if (handle(found.settings, [...(input.files || [])], input)) return;
    event.stopImmediatePropagation();
    input.value = "";
  }, true);

  window.addEventListener("drop", (event) => {
    const found = zoneOf(event.target);
    if (guard.ours.has(event) || !found || !event.dataTransfer) return;
    const input = found.zone.querySelector("input[type=file]");
    if (!input || handle(found.settings, [...event.dataTransfer.files], input)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    endDrag(event.target);
  }, true);
})();
