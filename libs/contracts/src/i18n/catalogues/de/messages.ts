import type { Messages } from '../../catalogue.js';
import type { messages as english } from '../en/messages.js';

/** German: e-mails and SMS to signers and to the people of a Site. */
export const messages: Messages<typeof english> = {
  'email.hello': 'Guten Tag,',

  'email.aSite': 'Eine Website',
  'email.contract': 'Vertrag {id}',
  'email.list.none': 'ein Dokument',
  'email.list.more': '{names} und {count} weitere',
  'email.list.and': '{names} und {last}',
  'email.documents': '{count, plural, one {ein Dokument} other {# Dokumente}}',
  'email.sent.subject': '{site} hat Ihnen {names} zur Unterschrift gesendet',
  'email.sent.lead': '{site} hat Ihnen {documents} zur Unterschrift gesendet:',
  'email.reminder.subject': 'Erinnerung: {site} wartet auf Ihre Unterschrift unter {names}',
  'email.reminder.ownSubject': 'Erinnerung: {subject}',
  'email.reminder.lastDaySubject':
    'Letzter Tag zum Unterschreiben: {site} wartet auf Ihre Unterschrift unter {names}',
  'email.reminder.lastDayOwnSubject': 'Letzter Tag zum Unterschreiben: {subject}',
  'email.reminder.lead': '{site} wartet noch auf Ihre Unterschrift unter {documents}:',
  'email.reviewHere': 'Hier prüfen und unterschreiben:',
  'email.reviewButton': 'Prüfen und unterschreiben',
  'email.orOpen': 'Oder öffnen Sie diesen Link:',
  'email.signBefore': 'Bitte unterschreiben Sie vor dem {date}.',
  'email.message': 'Eine Nachricht von {site}:',
  'email.askedBy': '{who} hat Sie gebeten, an seiner oder ihrer Stelle zu unterschreiben.',
  'email.note': 'Eine Nachricht von {who}:',
  'email.personal': 'Dieser Link ist persönlich: Bitte leiten Sie ihn nicht weiter.',
  'email.code.subject': 'Ihr Code zum Unterschreiben für {site}: {code}',
  'email.code.lead': 'Ihr Code zum Öffnen des Dokuments, das {site} Ihnen gesendet hat:',
  'email.code.until':
    'Er gilt einmalig bis {until}. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail.',
  'email.code.tenMinutes': 'in 10 Minuten',
  'email.completed.subject': 'Abgeschlossen: {names} ist von allen unterschrieben',
  'email.completed.lead': 'Alle haben {names} unterschrieben, das {site} zur Unterschrift gesendet hat.',
  'email.completed.download':
    'Laden Sie Ihre Kopie des unterschriebenen Dokuments (PDF) über den Link unten herunter. Er gilt bis {until}; bewahren Sie die Datei sicher auf.',
  'email.completed.thirtyDays': '30 Tage lang',
  'email.completed.link': 'Ihre Kopie herunterladen (PDF)',
  'email.declined.subject': 'Abgelehnt: {names}',
  'email.declined.lead':
    '{who} hat die Unterschrift unter {names} abgelehnt, das {site} zur Unterschrift gesendet hat. Die Anfrage ist beendet: Sie müssen nichts weiter tun.',
  'email.declined.reason': 'Begründung: {reason}',
  'email.cancelled.subject': 'Storniert: {names}',
  'email.cancelled.lead':
    '{site} hat die Anfrage zur Unterschrift unter {names} storniert. Sie müssen nichts weiter tun; Ihr Link zum Unterschreiben funktioniert nicht mehr.',
  'email.cancelled.reason': 'Angegebener Grund: {reason}',
  'email.replaced.subject': 'Nicht mehr benötigt: {names}',
  'email.replaced.lead':
    '{site} hat eine andere Person gebeten, {names} an Ihrer Stelle zu unterschreiben, daher funktioniert Ihr Link zum Unterschreiben nicht mehr.',
  'embedded.used.title': 'Dieser Link zum Unterschreiben wurde bereits verwendet',
  'embedded.used.message': 'Zu Ihrer Sicherheit öffnet sich ein Link zum Unterschreiben nur einmal.',
  'embedded.again.detail':
    'Kehren Sie zur vorherigen Seite zurück und beginnen Sie erneut mit dem Unterschreiben: Dabei öffnet sich ein neuer Link.',
  'embedded.expired.title': 'Dieser Link zum Unterschreiben ist abgelaufen',
  'embedded.expired.message':
    'Links zum Unterschreiben, die sich innerhalb einer anderen Website öffnen, gelten 5 Minuten lang.',
  'embedded.unknown.title': 'Dieser Link ist ungültig',
  'embedded.unknown.message': 'Unter diesem Link gibt es kein Dokument zu unterschreiben.',
  'embedded.unknown.detail':
    'Kehren Sie zur vorherigen Seite zurück und beginnen Sie erneut mit dem Unterschreiben.',
  'email.sender.completed.lead':
    'Alle haben {names} unterschrieben, das Sie von {site} aus zur Unterschrift gesendet haben.',
  'email.sender.completed.where':
    'Das unterschriebene Dokument (PDF) finden Sie mit seinem Prüfprotokoll auf der Seite der Anfrage.',
  'email.sender.declined.lead':
    '{who} hat abgelehnt, {names} zu unterschreiben, das Sie von {site} aus zur Unterschrift gesendet haben. Die Anfrage ist beendet.',
  'email.sender.expired.subject': 'Abgelaufen ohne alle Unterschriften: {names}',
  'email.sender.expired.lead':
    '{names}, das Sie von {site} zur Unterschrift gesendet haben, ist abgelaufen, bevor alle unterschrieben haben: Die Links zum Unterschreiben funktionieren nicht mehr.',
  'email.sender.expired.again':
    'Um es erneut zu senden, öffnen Sie die Anfrage und kopieren Sie sie in einen neuen Entwurf.',
  'email.sender.link': 'Anfrage öffnen',
  'email.sender.reassigned.subject': 'Jemand anderes unterschreibt: {names}',
  'email.sender.reassigned.lead':
    '{from} hat {to} gebeten, {names} stattdessen zu unterschreiben, wie es die Anfrage erlaubt, die Sie über {site} gesendet haben. {to} hat per E-Mail einen eigenen Link erhalten.',
  'sms.sent': '{site} hat Ihnen {names} zur Unterschrift gesendet. Hier unterschreiben: {url}',
  'sms.reminder': 'Erinnerung: {site} wartet auf Ihre Unterschrift unter {names}. Hier unterschreiben: {url}',
  'sms.reminder.lastDay':
    'Letzter Tag zum Unterschreiben: {site} wartet auf Ihre Unterschrift unter {names}. Hier unterschreiben: {url}',
  'sms.completed': 'Alle haben {names} unterschrieben. Ihre Kopie: {url}',
  'sms.declined': '{who} hat die Unterschrift unter {names} abgelehnt.',
  'sms.cancelled':
    '{site} hat die Anfrage zur Unterschrift unter {names} storniert. Sie müssen nichts weiter tun.',
  'sms.replaced':
    '{site} hat eine andere Person gebeten, {names} an Ihrer Stelle zu unterschreiben. Von Ihnen wird nichts weiter benötigt.',
  'sms.code': '{code} ist Ihr Code zum Unterschreiben für {site}. Einmalig gültig, 10 Minuten lang.',
};
