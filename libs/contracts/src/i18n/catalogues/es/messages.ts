import type { Messages } from '../../catalogue.js';
import type { messages as english } from '../en/messages.js';

/** Spanish: e-mails and SMS to signers and to the people of a Site. */
export const messages: Messages<typeof english> = {
  'email.hello': 'Hola:',
  'email.aSite': 'Un sitio',
  'email.contract': 'Contrato {id}',
  'email.list.none': 'un documento',
  'email.list.more': '{names} y {count} más',
  'email.list.and': '{names} y {last}',
  'email.documents': '{count, plural, one {un documento} other {# documentos}}',
  'email.sent.subject': '{site} le ha enviado {names} para firmar',
  'email.sent.lead': '{site} le ha enviado {documents} para firmar:',
  'email.reminder.subject': 'Recordatorio: {site} espera su firma en {names}',
  'email.reminder.ownSubject': 'Recordatorio: {subject}',
  'email.reminder.lastDaySubject': 'Último día para firmar: {site} espera su firma en {names}',
  'email.reminder.lastDayOwnSubject': 'Último día para firmar: {subject}',
  'email.reminder.lead': '{site} sigue esperando su firma en {documents}:',
  'email.reviewHere': 'Revise y firme aquí:',
  'email.reviewButton': 'Revisar y firmar',
  'email.orOpen': 'O abra este enlace:',
  'email.signBefore': 'Firme antes del {date}.',
  'email.message': 'Un mensaje de {site}:',
  'email.askedBy': '{who} le ha pedido que firme en su lugar.',
  'email.note': 'Una nota de {who}:',
  'email.personal': 'Este enlace es personal: no lo reenvíe.',
  'email.code.subject': 'Su código para firmar para {site}: {code}',
  'email.code.lead': 'Su código para abrir el documento que le envió {site}:',
  'email.code.until': 'Funciona una sola vez, hasta {until}. Si no lo ha pedido, ignore este correo.',
  'email.code.tenMinutes': 'dentro de 10 minutos',
  'email.completed.subject': 'Completado: todos han firmado {names}',
  'email.completed.lead': 'Todos han firmado {names}, que {site} envió para firmar.',
  'email.completed.download':
    'Descargue su copia del documento firmado (PDF) con el enlace de abajo. Funciona hasta {until}; guarde el archivo en un lugar seguro.',
  'email.completed.thirtyDays': 'durante 30 días',
  'email.completed.link': 'Descargar su copia (PDF)',
  'email.declined.subject': 'Rechazado: {names}',
  'email.declined.lead':
    '{who} rechazó firmar {names}, que {site} envió para firmar. La solicitud ha terminado: no necesita hacer nada más.',
  'email.declined.reason': 'Su motivo: {reason}',
  'email.cancelled.subject': 'Cancelado: {names}',
  'email.cancelled.lead':
    '{site} canceló la solicitud de firma de {names}. No necesita hacer nada más y su enlace de firma ya no funciona.',
  'email.cancelled.reason': 'Motivo indicado: {reason}',
  'email.replaced.subject': 'Ya no es necesario: {names}',
  'email.replaced.lead':
    '{site} ha pedido a otra persona que firme {names} en su lugar, por lo que su enlace de firma ya no funciona.',
  'embedded.used.title': 'Este enlace de firma ya se utilizó',
  'embedded.used.message': 'Por su seguridad, un enlace de firma solo se abre una vez.',
  'embedded.again.detail':
    'Vuelva a la página de la que venía y empiece a firmar de nuevo: se abrirá un enlace nuevo.',
  'embedded.expired.title': 'Este enlace de firma ha caducado',
  'embedded.expired.message':
    'Los enlaces de firma que se abren dentro de otro sitio funcionan durante 5 minutos.',
  'embedded.unknown.title': 'Este enlace no es válido',
  'embedded.unknown.message': 'No hay ningún documento para firmar en este enlace.',
  'embedded.unknown.detail': 'Vuelva a la página de la que venía y empiece a firmar de nuevo.',
  'email.sender.completed.lead': 'Todos han firmado {names}, que usted envió para firmar desde {site}.',
  'email.sender.completed.where':
    'El documento firmado (PDF) está en la página de la solicitud, con su registro de auditoría.',
  'email.sender.declined.lead':
    '{who} rechazó firmar {names}, que usted envió para firmar desde {site}. La solicitud ha terminado.',
  'email.sender.expired.subject': 'Vencido sin todas las firmas: {names}',
  'email.sender.expired.lead':
    '{names}, que usted envió para firmar desde {site}, venció antes de que todos firmaran: sus enlaces de firma ya no funcionan.',
  'email.sender.expired.again': 'Para enviarlo de nuevo, abra la solicitud y cópiela en un nuevo borrador.',
  'email.sender.link': 'Abrir la solicitud',
  'email.sender.reassigned.subject': 'Firmará otra persona: {names}',
  'email.sender.reassigned.lead':
    '{from} ha pedido a {to} que firme {names} en su lugar, como lo permitía la solicitud que usted envió desde {site}. {to} ha recibido su propio enlace por correo electrónico.',
  'sms.sent': '{site} le ha enviado {names} para firmar. Firme aquí: {url}',
  'sms.reminder': 'Recordatorio: {site} espera su firma en {names}. Firme aquí: {url}',
  'sms.reminder.lastDay': 'Último día para firmar: {site} espera su firma en {names}. Firme aquí: {url}',
  'sms.completed': 'Todos han firmado {names}. Su copia: {url}',
  'sms.declined': '{who} rechazó firmar {names}.',
  'sms.cancelled': '{site} canceló la solicitud de firma de {names}. No necesita hacer nada más.',
  'sms.replaced':
    '{site} ha pedido a otra persona que firme {names} en su lugar. No se necesita nada más de usted.',
  'sms.code': '{code} es su código para firmar para {site}. Funciona una vez, durante 10 minutos.',
};
