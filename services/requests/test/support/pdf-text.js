import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
/**
 * The text of a PDF as a reader extracts it (Mozilla's PDF.js), one string per page with
 * runs of white space collapsed, so assertions read like the page.
 */
export const pdfText = async (bytes) => {
    const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 })
        .promise;
    const pages = [];
    for (let i = 1; i <= doc.numPages; i++) {
        const content = await (await doc.getPage(i)).getTextContent();
        pages.push(content.items
            .map((item) => ('str' in item ? item.str : ''))
            .join(' ')
            .replace(/\s+/g, ' ')
            .trim());
    }
    await doc.destroy();
    return { pages, text: pages.join('\n') };
};
//# sourceMappingURL=pdf-text.js.map