// PDFs written object by object, for the bench and the tests (no fixture is downloaded): text
// pages set in Helvetica, pages that are only a grey area, pages that are a picture of their text
// (as a scanner makes them: no text layer), an encrypted one.

const escapePdf = (text) => text.replace(/[\\()]/g, (c) => `\\${c}`);

/**
 * A PDF with one page per entry of `pages`: lines set from the top, or a JPEG image
 * (`{ jpeg, width, height }`, see scannedPage) filling the page.
 */
export function makePdf(pages, options = {}) {
  const objects = [];
  const add = (body) => objects.push(body);
  const catalog = add('<< /Type /Catalog /Pages 2 0 R >>');
  const pagesAt = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids = [];
  for (const lines of pages) {
    if (!Array.isArray(lines)) {
      const image = add(
        `<< /Type /XObject /Subtype /Image /Width ${lines.width} /Height ${lines.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${lines.jpeg.length} >>\nstream\n${lines.jpeg.toString('latin1')}\nendstream`,
      );
      const draw = 'q 612 0 0 792 0 0 cm /Im1 Do Q';
      const stream = add(`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`);
      kids.push(
        add(
          `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 ${image} 0 R >> >> /Contents ${stream} 0 R >>`,
        ),
      );
      continue;
    }
    const content = options.scanned
      ? '0.5 0.5 0.5 rg 72 72 468 648 re f'
      : `BT /F1 12 Tf 72 720 Td 16 TL ${lines.map((l) => `(${escapePdf(l)}) Tj T*`).join(' ')} ET`;
    const stream = add(
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    );
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${stream} 0 R >>`,
      ),
    );
  }
  objects[pagesAt - 1] =
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let encrypt = '';
  if (options.encrypted) {
    const filler = '28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a';
    const at = add(`<< /Filter /Standard /V 1 /R 2 /O <${filler}> /U <${filler}> /P -4 >>`);
    encrypt = ` /Encrypt ${at} 0 R /ID [<00112233445566778899aabbccddeeff><00112233445566778899aabbccddeeff>]`;
  }
  let out = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Letter-size pages rendered at this many pixels per point (1.5: 108 dpi, as a quick office scan). */
const SCAN_SCALE = 1.5;

/**
 * A scanned page: `lines` drawn as a picture (a JPEG), for makePdf; no text layer.
 * With `format`, the picture itself (a PNG, JPEG or WebP) instead.
 */
export async function scannedPage(lines, format, { quality = 80 } = {}) {
  const { createCanvas } = await import('@napi-rs/canvas');
  const width = Math.round(612 * SCAN_SCALE);
  const height = Math.round(792 * SCAN_SCALE);
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#111';
  g.font = `${Math.round(12 * SCAN_SCALE)}px sans-serif`;
  lines.forEach((line, i) => g.fillText(line, 72 * SCAN_SCALE, (90 + 18 * i) * SCAN_SCALE));
  if (format) return canvas.toBuffer(format);
  return { jpeg: canvas.toBuffer('image/jpeg', quality), width, height };
}
