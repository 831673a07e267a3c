/**
 * The text of a PDF as a reader extracts it (Mozilla's PDF.js), one string per page with
 * runs of white space collapsed, so assertions read like the page.
 */
export declare const pdfText: (bytes: Uint8Array) => Promise<{
    pages: string[];
    text: string;
}>;
