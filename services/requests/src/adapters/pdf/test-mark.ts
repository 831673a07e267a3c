import { degrees, rgb, type PDFDocument, type PDFFont } from '@cantoo/pdf-lib';

const RED = rgb(0.75, 0.1, 0.1);

/**
 * Marks every page of a test-mode Request's executed PDF (issue #22, ADR 2200), the copied
 * pages of PDF contracts included, with `text` ("TEST — not legally binding", in the
 * document's language since ADR 3820): a banner along the top edge (text a reader
 * extracts) and the same words large and faint across the page, so a printout or a cropped
 * screenshot still shows it is not a real agreement.
 */
export const markEveryPage = (doc: PDFDocument, font: PDFFont, text: string): void => {
  for (const page of doc.getPages()) {
    const { width, height } = page.getSize();
    const bannerSize = 11;
    const bannerWidth = font.widthOfTextAtSize(text, bannerSize);
    page.drawRectangle({
      x: 0,
      y: height - 26,
      width,
      height: 26,
      color: rgb(1, 0.93, 0.93),
      borderColor: RED,
      borderWidth: 0.8,
    });
    page.drawText(text, { x: (width - bannerWidth) / 2, y: height - 17, size: bannerSize, font, color: RED });
    const diagonal = Math.min(width, height) / 10;
    const across = font.widthOfTextAtSize(text, diagonal);
    const angle = Math.atan2(height, width);
    page.drawText(text, {
      x: width / 2 - (Math.cos(angle) * across) / 2,
      y: height / 2 - (Math.sin(angle) * across) / 2,
      size: diagonal,
      font,
      color: RED,
      opacity: 0.12,
      rotate: degrees((angle * 180) / Math.PI),
    });
  }
};
