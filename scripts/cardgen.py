#!/usr/bin/env python3
"""Generates the text of business cards as OCR reads them, with the truth of every field and the
role of every line: the corpus the line-role model is trained on (scripts/train_roles.py) and the
fresh sample `make eval` checks it with.

Each card is one JSON line in the form `cardscan-bench ocr-lines` writes (lines with text, OCR
confidence, text height, position and words), plus `truth` (the fields of ../shared/eval's
truth.jsonl, so eval/score.py scores records parsed from it) and `roles` (one per line: name,
title, org, dept, tagline, contact, address, other, junk).

Variety is the point: 40 regions through Faker's locales (names, streets, cities, postcodes, job
titles, company names as written there), numbers made valid with libphonenumber's Python port,
each language's phone, e-mail and web labels in several spellings and separators, and layouts
of corporate cards, shops and trades without a person, first names only, two people on one card,
back sides with a logo and a tagline, several offices, names in capitals or with post-nominals,
department lines, taglines, opening hours, lists of services, social handles; then what OCR does
to a photo: type sizes, two columns read as one line, lost accents, letters misread, logo and
texture read as junk lines, lines lost.

Two splits that share nothing but the method: `--split train` and `--split check`. The check split
uses regions, label spellings, separators and layouts that the train split never produces, so a
model that only learned the train split's surface does badly on it.

usage: python3 scripts/cardgen.py --count N --seed S [--split train|check] > cards.jsonl
needs: pip install faker phonenumbers
Deterministic: the same arguments write the same cards.
"""
import argparse, json, os, random, re, sys, unicodedata

try:
    from faker import Faker
    import phonenumbers
    from phonenumbers import PhoneNumberFormat, PhoneNumberType
except ImportError:
    raise SystemExit("cardgen.py needs: pip install faker phonenumbers")

# --- regions --------------------------------------------------------------------------------------

# region: (Faker locale, language, top-level domains, country names as printed)
REGIONS = {
    "US": ("en_US", "en", ["com", "net", "us"], ["USA", "United States"]),
    "GB": ("en_GB", "en", ["co.uk", "com", "uk"], ["United Kingdom", "UK"]),
    "AU": ("en_AU", "en", ["com.au", "com"], ["Australia"]),
    "CA": ("en_CA", "en", ["ca", "com"], ["Canada"]),
    "IE": ("en_IE", "en", ["ie", "com"], ["Ireland"]),
    "NZ": ("en_NZ", "en", ["co.nz", "nz"], ["New Zealand"]),
    "IN": ("en_IN", "en", ["co.in", "in", "com"], ["India"]),
    "PH": ("en_PH", "en", ["com.ph", "ph"], ["Philippines"]),
    "SG": ("en_US", "en", ["sg", "com.sg"], ["Singapore"]),
    "ZA": ("en_US", "en", ["co.za"], ["South Africa"]),
    "DE": ("de_DE", "de", ["de", "com"], ["Deutschland", "Germany"]),
    "AT": ("de_AT", "de", ["at"], ["Österreich", "Austria"]),
    "CH": ("de_CH", "de", ["ch"], ["Schweiz", "Switzerland"]),
    "FR": ("fr_FR", "fr", ["fr", "com"], ["France"]),
    "BE": ("nl_BE", "nl", ["be"], ["België", "Belgique"]),
    "NL": ("nl_NL", "nl", ["nl"], ["Nederland", "The Netherlands"]),
    "ES": ("es_ES", "es", ["es", "com"], ["España", "Spain"]),
    "MX": ("es_MX", "es", ["com.mx", "mx"], ["México"]),
    "AR": ("es_AR", "es", ["com.ar"], ["Argentina"]),
    "CO": ("es_CO", "es", ["com.co", "co"], ["Colombia"]),
    "CL": ("es_CL", "es", ["cl"], ["Chile"]),
    "PT": ("pt_PT", "pt", ["pt"], ["Portugal"]),
    "BR": ("pt_BR", "pt", ["com.br", "net.br", "com"], ["Brasil"]),
    "IT": ("it_IT", "it", ["it", "com"], ["Italia", "Italy"]),
    "SE": ("sv_SE", "sv", ["se"], ["Sverige", "Sweden"]),
    "NO": ("no_NO", "no", ["no"], ["Norge", "Norway"]),
    "DK": ("da_DK", "da", ["dk"], ["Danmark", "Denmark"]),
    "FI": ("fi_FI", "fi", ["fi"], ["Suomi", "Finland"]),
    "PL": ("pl_PL", "pl", ["pl", "com.pl"], ["Polska", "Poland"]),
    "CZ": ("cs_CZ", "cs", ["cz"], ["Česká republika", "Czech Republic"]),
    "SK": ("sk_SK", "cs", ["sk"], ["Slovensko", "Slovakia"]),
    "HU": ("hu_HU", "hu", ["hu"], ["Magyarország", "Hungary"]),
    "RO": ("ro_RO", "ro", ["ro"], ["România", "Romania"]),
    "HR": ("hr_HR", "hr", ["hr"], ["Hrvatska", "Croatia"]),
    "SI": ("sl_SI", "hr", ["si"], ["Slovenija", "Slovenia"]),
    "TR": ("tr_TR", "tr", ["com.tr"], ["Türkiye", "Turkey"]),
    "ID": ("id_ID", "id", ["co.id", "id"], ["Indonesia"]),
    "JP": ("ja_JP", "en", ["co.jp", "jp", "com"], ["Japan"]),
    "GR": ("en_US", "en", ["gr"], ["Greece"]),
    "IL": ("en_US", "en", ["co.il"], ["Israel"]),
    "MY": ("en_US", "en", ["com.my", "my"], ["Malaysia"]),
    "VN": ("vi_VN", "en", ["vn", "com.vn"], ["Vietnam"]),
    "KE": ("en_US", "en", ["co.ke"], ["Kenya"]),
    "AE": ("en_US", "en", ["ae"], ["United Arab Emirates", "UAE"]),
    "NG": ("en_US", "en", ["com.ng", "ng"], ["Nigeria"]),
    "LT": ("lt_LT", "en", ["lt"], ["Lietuva", "Lithuania"]),
    "KR": ("en_US", "en", ["co.kr", "kr"], ["Korea", "South Korea"]),
}
# Regions only the check split uses: a model must carry to countries it never saw.
CHECK_REGIONS = {"MX", "CL", "SK", "HR", "SI", "NZ", "PH", "HU", "IL", "BE", "NG", "LT", "KR"}

# --- words ------------------------------------------------------------------------------------------

# Labels before values, per language: (work phone, mobile, fax, e-mail, web). The second half of
# each language's list is held out for the check split.
LABELS = {
    "en": {"work": ["Tel", "Tel.", "Phone", "T", "P", "Office", "Ph", "Direct", "Main", "O", "Tel no.", "Telephone", "Landline", "Work", "DL", "Office Phone"],
           "mobile": ["Mobile", "M", "Cell", "Mob", "C", "Mob.", "Cell.", "Cellphone", "Mobile Phone", "WhatsApp", "Mobile No."],
           "fax": ["Fax", "F", "Fax.", "Facsimile", "Fx", "Telefax"],
           "email": ["Email", "E", "E-mail", "Mail", "email", "E-Mail", "Email Address", "eMail"],
           "web": ["Web", "W", "Website", "www", "Site", "Online", "Internet", "Homepage"]},
    "de": {"work": ["Tel.", "Telefon", "T", "Fon", "Tel", "Büro", "Zentrale", "Festnetz", "Durchwahl", "Fon."],
           "mobile": ["Mobil", "Handy", "M", "Mobil.", "Mobiltelefon", "Funk", "Mob."],
           "fax": ["Fax", "Telefax", "F", "Fax."],
           "email": ["E-Mail", "Mail", "E", "eMail", "E-Post"],
           "web": ["Web", "Internet", "www", "W", "Homepage"]},
    "fr": {"work": ["Tél.", "Tél", "T", "Tel", "Bureau", "Standard", "Ligne directe", "Téléphone", "Fixe"],
           "mobile": ["Mobile", "Portable", "M", "Port.", "Mob.", "GSM", "Cell."],
           "fax": ["Fax", "Télécopie", "F", "Fax."],
           "email": ["Email", "Courriel", "E-mail", "Mél", "Mail", "E"],
           "web": ["Web", "Site", "www", "Site web", "Internet"]},
    "nl": {"work": ["Tel.", "T", "Telefoon", "Tel", "Kantoor", "Vast", "Centrale"],
           "mobile": ["Mobiel", "M", "GSM", "Mob.", "Mobiel nr."],
           "fax": ["Fax", "F", "Fax."],
           "email": ["E-mail", "E", "Email", "Mail"],
           "web": ["Web", "Website", "www", "Internet", "W"]},
    "es": {"work": ["Tel.", "Teléfono", "T", "Tel", "Tlf.", "Oficina", "Fijo", "Teléf.", "Conmutador", "Tel. fijo"],
           "mobile": ["Móvil", "Cel.", "Celular", "M", "Móv.", "Cel", "WhatsApp", "Movil"],
           "fax": ["Fax", "F", "Telefax", "Fax."],
           "email": ["Email", "Correo", "E-mail", "Mail", "E", "Correo electrónico"],
           "web": ["Web", "www", "Sitio", "Sitio web", "Página", "W"]},
    "pt": {"work": ["Tel.", "Tel", "Telefone", "Fone", "T", "PABX", "Fones", "Fixo", "Tel./Fax", "Escritório"],
           "mobile": ["Cel.", "Celular", "Telemóvel", "M", "Cel", "WhatsApp", "Móvel", "Tlm.", "Whats"],
           "fax": ["Fax", "F", "Fax."],
           "email": ["E-mail", "Email", "E", "Correio", "Mail", "e-mail"],
           "web": ["Site", "Web", "www", "Website", "Página", "S"]},
    "it": {"work": ["Tel.", "Tel", "Telefono", "T", "Ufficio", "Centralino", "Tel. fisso", "Fisso"],
           "mobile": ["Cell.", "Cellulare", "Mob.", "M", "Cell", "Mobile"],
           "fax": ["Fax", "F", "Telefax"],
           "email": ["Email", "E-mail", "Mail", "E", "Posta"],
           "web": ["Web", "Sito", "www", "Sito web", "W"]},
    "sv": {"work": ["Tel", "Telefon", "T", "Växel", "Tfn", "Direkt", "Kontor"],
           "mobile": ["Mobil", "M", "Mob", "Mobiltelefon"],
           "fax": ["Fax", "F", "Telefax"],
           "email": ["E-post", "E-mail", "Mail", "E", "Epost"],
           "web": ["Webb", "Web", "www", "Hemsida", "W"]},
    "no": {"work": ["Tlf", "Telefon", "T", "Tlf.", "Sentralbord", "Direkte"],
           "mobile": ["Mobil", "M", "Mob"],
           "fax": ["Faks", "F", "Fax"],
           "email": ["E-post", "E", "Epost", "Mail"],
           "web": ["Web", "Nett", "www", "W"]},
    "da": {"work": ["Tlf.", "Telefon", "T", "Tlf", "Direkte"],
           "mobile": ["Mobil", "M", "Mob."],
           "fax": ["Fax", "F"],
           "email": ["E-mail", "Mail", "E", "Email"],
           "web": ["Web", "www", "W", "Hjemmeside"]},
    "fi": {"work": ["Puh.", "Puhelin", "P", "Puh", "Vaihde", "Tel."],
           "mobile": ["GSM", "Matkapuhelin", "M", "Mob.", "Kännykkä"],
           "fax": ["Faksi", "F", "Fax"],
           "email": ["Sähköposti", "Email", "E", "S-posti"],
           "web": ["Web", "Kotisivu", "www", "Verkkosivut"]},
    "pl": {"work": ["Tel.", "Tel", "T", "Telefon", "Tel. stacjonarny", "Centrala"],
           "mobile": ["Tel. kom.", "Kom.", "M", "Komórka", "GSM", "Mob."],
           "fax": ["Faks", "Fax", "F"],
           "email": ["E-mail", "Email", "E", "Poczta"],
           "web": ["WWW", "Web", "Strona", "Internet"]},
    "cs": {"work": ["Tel.", "Tel", "T", "Telefon", "Pevná linka"],
           "mobile": ["Mobil", "M", "Mob.", "GSM"],
           "fax": ["Fax", "F"],
           "email": ["E-mail", "Email", "E"],
           "web": ["Web", "www", "W"]},
    "hu": {"work": ["Tel.", "Telefon", "T", "Tel"],
           "mobile": ["Mobil", "M", "Mob.", "Mobiltelefon"],
           "fax": ["Fax", "F"],
           "email": ["E-mail", "Email", "E"],
           "web": ["Web", "Honlap", "www"]},
    "ro": {"work": ["Tel.", "Telefon", "T", "Tel"],
           "mobile": ["Mobil", "M", "Mob.", "GSM"],
           "fax": ["Fax", "F"],
           "email": ["E-mail", "Email", "E"],
           "web": ["Web", "www", "Site"]},
    "hr": {"work": ["Tel.", "Telefon", "T", "Tel"],
           "mobile": ["Mob.", "Mobitel", "M", "GSM"],
           "fax": ["Fax", "F", "Faks"],
           "email": ["E-mail", "Email", "E"],
           "web": ["Web", "www"]},
    "tr": {"work": ["Tel", "Tel.", "T", "Telefon", "Sabit"],
           "mobile": ["Gsm", "Cep", "M", "Mobil", "GSM"],
           "fax": ["Faks", "Fax", "F"],
           "email": ["E-posta", "E-mail", "E", "Email"],
           "web": ["Web", "www", "İnternet"]},
    "id": {"work": ["Telp.", "Tel", "T", "Telepon", "Kantor"],
           "mobile": ["HP", "Ponsel", "M", "Hp.", "WA"],
           "fax": ["Faks", "Fax", "F"],
           "email": ["Email", "E-mail", "Surel", "E"],
           "web": ["Web", "Situs", "www"]},
}
SEPARATORS_TRAIN = [" ", ": ", ". ", " | ", " : ", ":  "]
SEPARATORS_CHECK = [" - ", " / ", " · ", " • ", "  ", " > ", " – "]
MULTI_SEPARATORS = [" / ", " | ", " - ", "  ", " • ", " ou ", " or ", ", "]

# English titles beside Faker's own job titles (which are mostly occupations, not card titles).
TITLES_EN = ["Sales Director", "Chief Executive Officer", "Managing Director", "Senior Software Engineer", "Product Manager",
             "Head of Marketing", "Account Executive", "Business Development Manager", "Operations Manager", "Art Director",
             "Financial Controller", "Research Scientist", "Partner", "Founder", "Co-Founder & CTO", "Senior Consultant",
             "Project Manager", "Lead UX Designer", "Legal Counsel", "Procurement Manager", "Regional Manager", "Owner",
             "Customer Success Lead", "Data Analyst", "Office Manager", "Technical Lead", "Head of Partnerships",
             "President", "Vice President, Sales", "CEO", "CFO", "General Manager", "Store Manager", "Broker",
             "Attorney at Law", "Realtor", "Principal", "Associate", "Executive Assistant", "Senior Associate",
             "Director of Operations", "VP Engineering", "Creative Director", "Marketing Coordinator", "Sales Representative",
             "Account Manager", "Branch Manager", "Chief Technology Officer", "Founder & CEO", "Managing Partner",
             "Design Consultant", "Senior Analyst", "Team Lead", "Registered Nurse", "Chief Operating Officer",
             "Sales & Marketing Manager", "Client Services", "Business Analyst", "Head Chef", "Technician"]
TITLES = {
    "de": ["Geschäftsführer", "Geschäftsführerin", "Vertriebsleiter", "Leiterin Einkauf", "Projektleiter", "Prokurist",
           "Key Account Manager", "Rechtsanwältin", "Leiter Marketing", "Softwareentwickler", "Inhaber", "Steuerberaterin",
           "Vertriebsmitarbeiter", "Kundenberaterin", "Bereichsleiter", "Teamleiterin Personal", "Architekt", "Filialleiter"],
    "fr": ["Directeur commercial", "Chef de projet", "Responsable marketing", "Directrice générale", "Ingénieur commercial",
           "Gérant", "Consultante senior", "Responsable des achats", "Président", "Chargée de clientèle", "Associé",
           "Directeur technique", "Attachée commerciale", "Comptable", "Avocate"],
    "nl": ["Directeur", "Accountmanager", "Projectleider", "Commercieel directeur", "Adviseur", "Bedrijfsleider", "Eigenaar",
           "Vennoot", "Medewerker verkoop", "Hoofd inkoop"],
    "es": ["Director Comercial", "Gerente General", "Responsable de Compras", "Jefa de Proyecto", "Consultor Senior",
           "Directora de Marketing", "Gerente de Ventas", "Asesor Comercial", "Socio Director", "Propietario", "Ejecutiva de Cuentas",
           "Coordinadora Administrativa", "Ingeniero de Proyectos"],
    "pt": ["Diretor Comercial", "Gerente de Projetos", "Diretora Geral", "Consultor", "Gestor de Compras", "Sócio-Diretor",
           "Gerente Comercial", "Analista de Sistemas", "Coordenadora de Vendas", "Representante Comercial", "Proprietário",
           "Supervisor Técnico", "Engenheiro Civil", "Advogada", "Corretor de Imóveis", "Gerente de Contas"],
    "it": ["Direttore Commerciale", "Responsabile Acquisti", "Amministratore Delegato", "Direttore Tecnico", "Consulente",
           "Responsabile Marketing", "Titolare", "Socio", "Agente di Commercio", "Architetto", "Project Manager"],
    "sv": ["VD", "Försäljningschef", "Projektledare", "Ekonomichef", "Inköpschef", "Konsult", "Säljare", "Ägare"],
    "no": ["Daglig leder", "Salgssjef", "Prosjektleder", "Økonomisjef", "Rådgiver", "Selger"],
    "da": ["Direktør", "Salgschef", "Projektleder", "Økonomichef", "Konsulent", "Indehaver"],
    "fi": ["Toimitusjohtaja", "Myyntipäällikkö", "Projektipäällikkö", "Talousjohtaja", "Asiantuntija", "Yrittäjä"],
    "pl": ["Dyrektor Handlowy", "Kierownik Projektu", "Prezes Zarządu", "Specjalista ds. Zakupów", "Konsultant", "Właściciel"],
    "cs": ["Obchodní ředitel", "Vedoucí projektu", "Jednatel", "Konzultant", "Nákupčí", "Majitel"],
    "hu": ["Ügyvezető igazgató", "Értékesítési vezető", "Projektvezető", "Tanácsadó", "Tulajdonos"],
    "ro": ["Director General", "Manager de Vânzări", "Consultant", "Inginer", "Administrator"],
    "hr": ["Direktor", "Voditelj prodaje", "Savjetnik", "Vlasnik", "Inženjer"],
    "tr": ["Genel Müdür", "Satış Müdürü", "Proje Yöneticisi", "Danışman", "Mühendis"],
    "id": ["Direktur", "Manajer Penjualan", "Konsultan", "Pemilik", "Staf Pemasaran"],
}
DEPARTMENTS = {
    "en": ["Sales Department", "Marketing & Communications", "Finance Division", "Research and Development", "Customer Service",
           "Human Resources", "Engineering Department", "International Sales", "Corporate Banking", "Legal Department"],
    "de": ["Abteilung Vertrieb", "Einkauf", "Personalabteilung", "Forschung und Entwicklung", "Kundendienst"],
    "fr": ["Service commercial", "Direction financière", "Département marketing", "Ressources humaines"],
    "es": ["Departamento Comercial", "Área de Ventas", "Recursos Humanos", "Dirección Financiera"],
    "pt": ["Departamento Comercial", "Setor de Vendas", "Recursos Humanos", "Diretoria Financeira"],
    "it": ["Ufficio Commerciale", "Reparto Vendite", "Risorse Umane", "Direzione Tecnica"],
}
POSTNOMINALS = ["PhD", "MBA", "CPA", "P.E.", "MD", "Esq.", "Jr.", "Sr.", "III", "Dipl.-Ing.", "M.Sc.", "CFA", "RN", "LL.M.", "FCA"]
PREFIXES = {"en": ["Dr.", "Prof.", "Mr.", "Ms."], "de": ["Dr.", "Prof. Dr.", "Dipl.-Ing."], "fr": ["Dr", "Me"],
            "es": ["Dr.", "Lic.", "Ing.", "Dra."], "pt": ["Dr.", "Dra.", "Eng."], "it": ["Dott.", "Ing.", "Avv.", "Arch."],
            "pl": ["Dr", "Mgr", "Inż."], "cs": ["Ing.", "Mgr."], "hu": ["Dr."], "ro": ["Ing.", "Dr."], "tr": ["Dr."],
            "id": ["Ir.", "Dr."]}

INDUSTRY = {
    "en": ["Solutions", "Systems", "Technologies", "Consulting", "Group", "Partners", "Labs", "Logistics", "Capital", "Design",
           "Studio", "Media", "Analytics", "Engineering", "Holdings", "Ventures", "Services", "Networks", "Software",
           "Security", "Pharma", "Foods", "Trading", "Industries", "Associates", "Works", "Digital", "Energy", "Health",
           "Realty", "Advisors", "Dynamics", "Robotics", "Interactive", "Imports", "Marine", "Instruments", "Supply"],
    "de": ["Technik", "Bau", "Logistik", "Beratung", "Handel", "Systeme", "Werkzeugbau", "Maschinenbau", "Immobilien",
           "Verwaltung", "Medien", "Elektrotechnik", "Haustechnik", "Spedition"],
    "fr": ["Conseil", "Bâtiment", "Transports", "Ingénierie", "Distribution", "Immobilier", "Services", "Industries"],
    "es": ["Consultores", "Construcciones", "Transportes", "Ingeniería", "Distribuciones", "Servicios", "Inversiones",
           "Asesores", "Comercial"],
    "pt": ["Consultoria", "Construtora", "Transportes", "Engenharia", "Distribuidora", "Serviços", "Comércio",
           "Empreendimentos", "Participações", "Contabilidade", "Tecnologia"],
    "it": ["Consulenze", "Costruzioni", "Trasporti", "Ingegneria", "Distribuzione", "Servizi", "Impianti", "Tecnologie"],
    "nl": ["Advies", "Bouw", "Transport", "Techniek", "Installatie", "Groep", "Diensten"],
    "sv": ["Konsult", "Bygg", "Transport", "Teknik", "Fastigheter", "Gruppen"],
}
# Trades and shops: what small businesses call themselves (the business name is often the trade
# with a family name or a place). Not exhaustive on purpose.
TRADES = {
    "en": ["Bakery", "Pharmacy", "Hardware", "Auto Repair", "Plumbing", "Landscaping", "Roofing", "Cleaning Services",
           "Catering", "Dental Care", "Pet Grooming", "Printing", "Locksmith", "Flooring", "Construction", "Tailoring",
           "Barber Shop", "Hair Salon", "Cafe", "Diner", "Grill", "Tattoo Studio", "Fitness", "Yoga Studio",
           "Photography", "Moving & Storage", "Heating & Cooling", "Tire Center", "Body Shop", "Florist", "Deli",
           "Laundromat", "Tax Services", "Insurance Agency", "Driving School", "Music School", "Veterinary Clinic"],
    "pt": ["Padaria", "Farmácia", "Papelaria", "Imobiliária", "Vidraçaria", "Marcenaria", "Lavanderia", "Academia",
           "Clínica", "Advocacia", "Pet Shop", "Salão de Beleza", "Barbearia", "Pizzaria", "Lanchonete", "Churrascaria",
           "Sorveteria", "Chaveiro", "Gráfica", "Joalheria", "Sapataria", "Tecidos", "Móveis", "Calçados", "Confecções",
           "Turismo", "Imóveis", "Odontologia", "Veterinária", "Dedetizadora", "Pneus", "Autoescola", "Doceria",
           "Açougue", "Mercearia", "Hortifruti", "Lava Rápido", "Serralheria", "Cabeleireiros", "Transportadora"],
    "es": ["Panadería", "Farmacia", "Ferretería", "Librería", "Inmobiliaria", "Carpintería", "Lavandería", "Clínica Dental",
           "Asesoría", "Abogados", "Peluquería", "Pizzería", "Cafetería", "Joyería", "Zapatería", "Muebles", "Viajes",
           "Imprenta", "Cerrajería", "Vidriería", "Veterinaria", "Taller Mecánico", "Carnicería", "Frutería", "Autoescuela"],
    "de": ["Bäckerei", "Apotheke", "Schreinerei", "Tischlerei", "Metzgerei", "Friseur", "Autohaus", "Reisebüro",
           "Steuerberatung", "Kanzlei", "Malerbetrieb", "Sanitär", "Druckerei", "Gärtnerei", "Zahnarztpraxis",
           "Physiotherapie", "Fahrschule", "Dachdeckerei", "Kfz-Werkstatt", "Blumenladen", "Konditorei"],
    "fr": ["Boulangerie", "Pharmacie", "Menuiserie", "Boucherie", "Coiffure", "Garage", "Agence immobilière", "Cabinet",
           "Imprimerie", "Plomberie", "Pâtisserie", "Librairie", "Pressing", "Traiteur", "Auto-école", "Fleuriste"],
    "it": ["Panetteria", "Farmacia", "Falegnameria", "Macelleria", "Parrucchiere", "Autofficina", "Agenzia Immobiliare",
           "Studio Legale", "Tipografia", "Pasticceria", "Ferramenta", "Pizzeria", "Trattoria", "Gelateria", "Fioraio"],
    "nl": ["Bakkerij", "Apotheek", "Timmerbedrijf", "Slagerij", "Kapsalon", "Garage", "Makelaardij", "Drukkerij", "Bloemenwinkel"],
    "sv": ["Bageri", "Apotek", "Snickeri", "Frisör", "Bilverkstad", "Mäklare", "Tryckeri", "Blomsterhandel"],
}
SERVICE_WORDS = {
    "en": ["repairs", "installation", "maintenance", "sales", "rentals", "parts", "accessories", "consulting", "design",
           "delivery", "catering", "events", "weddings", "residential", "commercial", "emergency service", "free estimates",
           "24 hours", "all brands", "since 1987", "family owned", "licensed & insured", "quality guaranteed"],
    "pt": ["conserto", "instalação", "manutenção", "vendas", "locação", "peças", "acessórios", "entregas", "festas",
           "casamentos", "orçamento sem compromisso", "atendimento 24 horas", "todas as marcas", "desde 1990",
           "residencial", "comercial", "troca de óleo", "entrega grátis", "aceitamos cartões", "qualidade e confiança"],
    "es": ["reparación", "instalación", "mantenimiento", "ventas", "alquiler", "repuestos", "accesorios", "entregas",
           "eventos", "bodas", "presupuesto sin compromiso", "servicio 24 horas", "todas las marcas", "desde 1985"],
    "de": ["Reparatur", "Montage", "Wartung", "Verkauf", "Vermietung", "Ersatzteile", "Zubehör", "Lieferservice",
           "Notdienst", "alle Marken", "seit 1978", "Meisterbetrieb", "kostenlose Beratung"],
    "fr": ["réparation", "installation", "entretien", "vente", "location", "pièces détachées", "livraison", "devis gratuit",
           "dépannage 24h/24", "toutes marques", "depuis 1982"],
    "it": ["riparazione", "installazione", "manutenzione", "vendita", "noleggio", "ricambi", "consegna a domicilio",
           "preventivi gratuiti", "tutte le marche", "dal 1975"],
}
HOURS = {
    "en": ["Mon-Fri 9am-5pm", "Open 7 days", "Mon - Sat 8:00 - 18:00", "By appointment only", "Tue-Sun 11am-10pm"],
    "pt": ["Seg a Sex 8h às 18h", "Segunda a Sexta", "Sáb 8h às 12h", "Aberto todos os dias", "Ter a Dom 11h30 às 15h"],
    "es": ["Lun a Vie 9:00 - 18:00", "Abierto todos los días", "Sábados 10 a 14 h", "Previa cita"],
    "de": ["Mo-Fr 8-17 Uhr", "Sa 9-13 Uhr", "Termine nach Vereinbarung", "Öffnungszeiten: Di-So"],
    "fr": ["Lun-Ven 9h-18h", "Ouvert 7j/7", "Sur rendez-vous", "Du mardi au samedi"],
    "it": ["Lun-Ven 9-18", "Aperto tutti i giorni", "Su appuntamento", "Chiuso il lunedì"],
}
LEGAL = {
    "en": ["Inc.", "LLC", "Ltd", "Ltd.", "Corp.", "Co.", "Limited", "PLC", "LLP", "Pty Ltd", "Corporation", "Pte Ltd"],
    "de": ["GmbH", "AG", "GmbH & Co. KG", "KG", "e.K.", "UG", "OHG", "GbR"],
    "fr": ["SARL", "SAS", "S.A.", "SA", "EURL", "SNC"],
    "es": ["S.L.", "S.A.", "S.A. de C.V.", "SL", "S.L.U.", "Ltda.", "SpA", "S.R.L.", "SAS"],
    "pt": ["Ltda.", "LTDA", "S/A", "S.A.", "ME", "EIRELI", "Lda.", "S/C Ltda.", "Ltda ME", "EPP"],
    "it": ["S.r.l.", "S.p.A.", "Srl", "S.n.c.", "S.a.s."],
    "nl": ["B.V.", "BV", "N.V.", "VOF"],
    "sv": ["AB", "HB"], "no": ["AS", "ASA"], "da": ["A/S", "ApS"], "fi": ["Oy", "Oyj", "Ky"],
    "pl": ["Sp. z o.o.", "S.A.", "Sp.j."], "cs": ["s.r.o.", "a.s."], "hu": ["Kft.", "Zrt.", "Bt."],
    "ro": ["S.R.L.", "S.A."], "hr": ["d.o.o.", "d.d."], "tr": ["A.Ş.", "Ltd. Şti."], "id": ["PT", "CV", "Tbk"],
}
ADDRESS_LABELS = {"en": ["Address", "Addr.", "A", "Office"], "de": ["Adresse", "Anschrift"], "fr": ["Adresse"], "es": ["Dirección", "Dir."],
                  "pt": ["Endereço", "End.", "Morada"], "it": ["Indirizzo", "Sede"], "nl": ["Adres"], "sv": ["Adress", "Besöksadress"],
                  "pl": ["Adres"], "cs": ["Adresa"]}
HEADINGS = {"en": ["Portfolio", "Contact", "Services", "Quality", "Welcome", "Consulting", "Since 1995", "Open Daily"],
            "pt": ["Contato", "Serviços", "Qualidade", "Orçamentos", "Atendimento", "Delivery"],
            "es": ["Contacto", "Servicios", "Calidad", "Presupuestos", "Atención"],
            "de": ["Kontakt", "Leistungen", "Qualität", "Beratung", "Service"],
            "fr": ["Contact", "Prestations", "Qualité", "Devis"], "it": ["Contatti", "Servizi", "Qualità", "Preventivi"]}
SOCIAL = ["facebook.com/%s", "instagram.com/%s", "@%s", "fb.com/%s", "linkedin.com/in/%s", "twitter.com/%s", "/%s"]
WEBMAIL = ["gmail.com", "hotmail.com", "yahoo.com", "outlook.com", "icloud.com", "uol.com.br", "bol.com.br", "terra.com.br",
           "yahoo.com.br", "gmx.de", "web.de", "orange.fr", "libero.it", "wanadoo.fr", "live.com", "aol.com", "ig.com.br"]

# --- helpers ----------------------------------------------------------------------------------------


def ascii_slug(s):
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]", "", s.lower())


def strip_accents(s):
    s = unicodedata.normalize("NFKD", s)
    return unicodedata.normalize("NFC", "".join(c for c in s if not unicodedata.combining(c)))


class Card:
    """Lines of one card as printed: text, role and type size class."""

    def __init__(self):
        self.lines = []  # (text, role, size)

    def add(self, text, role, size):
        if text:
            self.lines.append((text, role, size))


_FAKERS = {}


def faker_for(locale):
    if locale not in _FAKERS:
        _FAKERS[locale] = Faker(locale)
    return _FAKERS[locale]


def pick_half(rng, items, split):
    """The first half of a list for the train split, any item for check."""
    if split == "train":
        return rng.choice(items[:max(1, (len(items) + 1) // 2 + len(items) // 4)])
    return rng.choice(items)


# --- fields -----------------------------------------------------------------------------------------


def make_phone(rng, region, kind):
    ptype = {"work": PhoneNumberType.FIXED_LINE, "mobile": PhoneNumberType.MOBILE, "fax": PhoneNumberType.FIXED_LINE}[kind]
    example = phonenumbers.example_number_for_type(region, ptype) or phonenumbers.example_number(region)
    if example is None:
        return None
    national = str(example.national_number)
    n = example
    for _ in range(200):
        keep = max(2, len(national) - rng.randint(4, 7))
        digits = national[:keep] + "".join(str(rng.randint(0, 9)) for _ in range(len(national) - keep))
        try:
            cand = phonenumbers.parse("+%d%s" % (example.country_code, digits), None)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(cand) and phonenumbers.number_type(cand) in (ptype, PhoneNumberType.FIXED_LINE_OR_MOBILE):
            n = cand
            break
    e164 = phonenumbers.format_number(n, PhoneNumberFormat.E164)
    style = rng.random()
    if style < 0.35:
        printed = phonenumbers.format_number(n, PhoneNumberFormat.INTERNATIONAL)
        if rng.random() < 0.2:
            printed = printed.replace(" ", rng.choice([".", "-", " "]))
    else:
        printed = phonenumbers.format_number(n, PhoneNumberFormat.NATIONAL)
        if rng.random() < 0.25:
            printed = re.sub(r"[\s\-]", rng.choice([".", " ", "-", "·"]), printed)
    valid = True
    # A local number printed without its area code (shops print them so): as printed, not valid.
    area = phonenumbers.length_of_geographical_area_code(n)
    if region in ("BR", "AR", "MX", "CO", "IN", "US") and area > 0 and rng.random() < 0.25 and style >= 0.35:
        nsn = phonenumbers.national_significant_number(n)
        local = nsn[area:]
        if len(local) >= 7:
            printed = "%s-%s" % (local[:-4], local[-4:]) if rng.random() < 0.8 else "%s.%s-%s" % (local[0], local[1:-4], local[-4:])
            e164 = "+%d%s" % (n.country_code, local)
            valid = False
    return dict(type=kind, printed=printed, e164=e164, valid=valid)


KOREAN_FAMILY = ["Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon", "Jang", "Lim", "Han", "Oh", "Seo", "Shin", "Kwon"]
KOREAN_SYLLABLES = ["min", "jun", "seo", "yeon", "ji", "woo", "hyun", "soo", "young", "ho", "eun", "jae", "sung", "hee", "dong"]
MALAY_GIVEN = ["Muhammad", "Ahmad", "Nur", "Siti", "Mohd", "Aisyah", "Farid", "Hafiz", "Zulkifli", "Aminah", "Faiz", "Haziq"]
def shared_area_code(phones):
    """The numbers as printed, those after the first that share its area code printed without it
    ("(11) 3847-2615 / 3847-2690"): the area code printed once applies to them (their truth keeps it)."""
    out = [p["printed"] for p in phones]
    first = phonenumbers.parse(phones[0]["e164"], None) if phones[0]["valid"] else None
    area = phonenumbers.length_of_geographical_area_code(first) if first else 0
    if not area or phones[0]["printed"].startswith("+"):
        return out
    prefix = phonenumbers.national_significant_number(first)[:area]
    for k, p in enumerate(phones[1:], 1):
        if not p["valid"] and not p["printed"].startswith("+"):
            # Printed without an area code already: the one printed before it on the line is its own.
            full = phonenumbers.parse("+%d%s%s" % (first.country_code, prefix, p["e164"][1 + len(str(first.country_code)):]), None)
            if phonenumbers.is_valid_number(full):
                p.update(e164=phonenumbers.format_number(full, PhoneNumberFormat.E164), valid=True)
            continue
        if p["printed"].startswith("+"):
            continue
        nsn = phonenumbers.national_significant_number(phonenumbers.parse(p["e164"], None))
        local = nsn[area:]
        if nsn.startswith(prefix) and len(local) >= 7:
            out[k] = "%s-%s" % (local[:-4], local[-4:])
    return out


# Names from other cultures, as cards printed in English write them (the region's own locale
# writes them in its own script, or Faker has none).
FOREIGN_LOCALES = ["ru_RU", "el_GR", "he_IL", "ar_AA", "hi_IN", "uk_UA", "bg_BG", "th_TH", "fa_IR", "ka_GE", "hy_AM"]


def romanized(text):
    try:
        from unidecode import unidecode
    except ImportError:
        return strip_accents(text)
    return unidecode(text)


def person_parts(rng, fake, region):
    """Given and family name as the region writes them, and whether the family name comes first."""
    r = rng.random()
    if region == "JP" or (region in ("US", "GB", "DE") and r < 0.03):
        f = faker_for("ja_JP")
        return f.first_romanized_name().capitalize(), f.last_romanized_name().capitalize(), rng.random() < 0.3
    if region in ("SG", "ID") and r < 0.6 or region in ("US", "GB", "AU", "CA") and r < 0.06:
        f = faker_for("zh_CN" if rng.random() < 0.7 else "zh_TW")
        given = f.first_romanized_name().capitalize()
        if rng.random() < 0.6:
            given += rng.choice([" ", "-", " "]) + f.first_romanized_name().capitalize()
        family = f.last_romanized_name().capitalize()
        if rng.random() < 0.3:
            # An English given name before the family name and the Chinese given names.
            return faker_for("en_US").first_name(), family + " " + given, False
        return given, family, rng.random() < 0.6
    if region in ("SG", "ID") and r < 0.8:
        given = rng.choice(MALAY_GIVEN) + " " + rng.choice(MALAY_GIVEN)
        return given, rng.choice(["bin ", "binti ", "bte ", ""]) + rng.choice(MALAY_GIVEN), False
    if region in ("US", "CA", "AU") and r < 0.1 or region == "KR":
        given = rng.choice(KOREAN_SYLLABLES).capitalize() + rng.choice(["-", "", " "]) + rng.choice(KOREAN_SYLLABLES)
        return given, rng.choice(KOREAN_FAMILY), rng.random() < 0.5
    if region == "MY":
        return person_parts(rng, fake, rng.choice(["SG", "SG", "IN"]))
    if region == "AE" and r < 0.5:
        f = faker_for("ar_AA")
        return romanized(f.first_name()).capitalize(), romanized(f.last_name()).capitalize(), False
    if region in ("SG", "GB", "US", "ZA", "AU") and r < 0.16:
        f = faker_for("en_IN")
        return f.first_name(), f.last_name(), False
    if r < 0.2 and region in ("US", "GB", "DE", "IL", "GR", "CA", "AU", "ZA", "FR"):
        f = faker_for(rng.choice(FOREIGN_LOCALES))
        return romanized(f.first_name()), romanized(f.last_name()), False
    if region in ("PH",) and r < 0.3:
        f = faker_for("es_ES")
        return f.first_name(), f.last_name(), False
    if region == "GR":
        f = faker_for("el_GR")
        return romanized(f.first_name()), romanized(f.last_name()), False
    if region == "IL":
        f = faker_for("he_IL")
        return romanized(f.first_name()), romanized(f.last_name()), False
    if region == "ZA" and r < 0.5:
        f = faker_for("nl_NL")
        return faker_for("en_US").first_name(), f.last_name(), False
    return fake.first_name(), fake.last_name(), False


def make_person(rng, fake, lang, region, split):
    given, family, family_first = person_parts(rng, fake, region)
    style = rng.random()
    if style < 0.12 and lang in ("pt", "es"):
        family = "%s %s" % (rng.choice(["da", "de", "dos", "del"]) if rng.random() < 0.4 else fake.last_name(), family) \
            if rng.random() < 0.7 else family
        given = "%s %s" % (given, fake.first_name()) if rng.random() < 0.5 else given
    if family_first:
        fam = family.upper() if rng.random() < 0.5 else family
        full = "%s %s" % (fam, given) if rng.random() < 0.7 else "%s %s" % (given, fam)
    else:
        full = "%s %s" % (given, family)
    r = rng.random()
    if r < 0.08 and not family_first:
        full = "%s %s. %s" % (given, chr(rng.randint(65, 90)), family)
    elif r < 0.13:
        full = "%s %s" % (rng.choice(PREFIXES.get(lang, PREFIXES["en"])), full)
    elif r < 0.19:
        pn = pick_half(rng, POSTNOMINALS, split)
        full = full + rng.choice([", ", " "]) + pn
    elif r < 0.22:
        full = "%s %s" % (given.split(" ")[0], family)  # a second given name left out
    if rng.random() < 0.15:
        full = full.upper()
    return dict(full=full, given=given, family=family)


SENIORITY = ["Senior", "Junior", "Lead", "Principal", "Chief", "Associate", "Assistant", "Head of", "Global", "Regional",
             "Deputy", "Staff", "Executive", ""]
FIELDS = ["Solutions", "Systems", "Security", "Network", "Data", "Cloud", "Digital", "Marketing", "Sales", "Product",
          "Design", "Media", "Software", "Logistics", "Supply Chain", "Customer", "Technical", "Business", "Finance",
          "Operations", "Quality", "Research", "Brand", "Account", "Project", "Infrastructure", "Partner", "Retail"]
ROLES_EN = ["Engineer", "Architect", "Analyst", "Manager", "Consultant", "Specialist", "Director", "Officer", "Coordinator",
            "Developer", "Advisor", "Executive", "Administrator", "Strategist", "Planner", "Lead", "Representative"]


def composed_title(rng):
    """[Seniority] [field] [role]: the shape most English titles have, words companies use too."""
    parts = [rng.choice(SENIORITY), rng.choice(FIELDS), rng.choice(ROLES_EN)]
    if parts[0] == "Head of":
        return "Head of " + parts[1]
    return " ".join(p for p in parts if p)


def make_title(rng, fake, lang, split):
    r = rng.random()
    if r < 0.15:
        t = composed_title(rng)
    elif r < 0.35 or lang not in TITLES:
        t = pick_half(rng, TITLES_EN, split)
    elif r < 0.75:
        t = pick_half(rng, TITLES[lang], split)
    else:
        try:
            t = fake.job()
        except Exception:
            t = rng.choice(TITLES_EN)
        t = t[0].upper() + t[1:]
        if len(t) > 40:
            t = rng.choice(TITLES_EN)
    c = rng.random()
    if c < 0.12:
        t = t.upper()
    elif c < 0.2 and len(t) <= 4:
        t = t.capitalize()  # "Vd", "Ceo"
    elif c < 0.22:
        t = t.lower()
    return t


def make_org(rng, fake, lang, region, family, kind, split):
    """Company, shop or trade names as they are printed, and the word for the domain."""
    legal = LEGAL.get(lang, LEGAL["en"])
    r = rng.random()
    if kind == "shop":
        trades = TRADES.get(lang) or TRADES["en"]
        trade = pick_half(rng, trades, split)
        who = rng.choice([family, fake.first_name(), fake.last_name(), fake.city(), ascii_slug(fake.word())[:8].capitalize()])
        form = rng.random()
        if form < 0.35:
            name = "%s %s" % (trade, who)
        elif form < 0.6:
            name = "%s %s" % (who, trade)
        elif form < 0.75:
            name = "%s %s %s" % (trade, rng.choice(["do", "da", "de", "del", "di", "du", "von"]) if lang != "en" else "of", who)
        elif form < 0.87:
            name = "%s %s" % (who, rng.choice(legal))
        else:
            name = "%s & %s" % (fake.last_name(), rng.choice([fake.last_name(), trade]))
        slugbase = who if rng.random() < 0.6 else name
    elif r < 0.35:
        name = fake.company()
        slugbase = name.split(",")[0].split(" and ")[0].split(" e ")[0]
        if rng.random() < 0.5:
            slugbase = slugbase.split(" ")[0]
    elif r < 0.55:
        ind = rng.choice(INDUSTRY.get(lang, INDUSTRY["en"]) + INDUSTRY["en"])
        base = rng.choice([family, fake.last_name(), ascii_slug(fake.word()).capitalize(), fake.city()])
        name = "%s %s" % (base, ind)
        if rng.random() < 0.5:
            name += " " + rng.choice(legal)
        slugbase = base
    elif r < 0.65:
        # An invented brand, sometimes with the country or a city in it.
        brand = ascii_slug(fake.last_name())[:5].capitalize() + rng.choice(["tec", "ex", "ia", "on", "ix", "ora", "co", "net", "is"])
        middle = rng.choice(["", " " + rng.choice(REGIONS[region][3]).split(" ")[0] if REGIONS[region][3] else "", " " + fake.city().split(" ")[0]])
        name = "%s%s %s" % (brand, middle, rng.choice(legal))
        slugbase = brand
    elif r < 0.75:
        acro = "".join(chr(rng.randint(65, 90)) for _ in range(rng.randint(2, 5)))
        name = "%s %s" % (acro, rng.choice(INDUSTRY.get(lang, INDUSTRY["en"]) + legal))
        slugbase = acro
    elif r < 0.85:
        a, b = fake.last_name(), fake.last_name()
        name = "%s %s %s" % (a, rng.choice(["&", "and", "und", "e", "y", "et"]), b)
        if rng.random() < 0.4:
            name += " " + rng.choice(legal + ["Associates", "Partners", "Advogados", "Rechtsanwälte", "Avocats", "Abogados"])
        slugbase = a + b if rng.random() < 0.5 else a
    else:
        word = ascii_slug(fake.word())[:10].capitalize() or "Nova"
        name = "%s %s" % (word, rng.choice(INDUSTRY["en"]))
        slugbase = word
    r = rng.random()
    if r < 0.15:
        name = name.upper()
    elif r < 0.2:
        name = name.lower()  # a wordmark set in lower case
    return name, ascii_slug(slugbase)[:20] or "empresa"


# Postcodes as the country prints them, where Faker's locale is borrowed or prints them otherwise.
POSTCODES = {"SG": "######", "ZA": "####", "GR": "### ##", "IL": "#######", "PH": "####", "MX": "#####", "HU": "####",
             "ID": "#####", "TR": "#####", "MY": "#####", "VN": "######", "KE": "#####", "NG": "######", "LT": "LT-#####",
             "KR": "#####"}


def make_address(rng, fake, region, lang, split):
    try:
        street = fake.street_address().replace("\n", ", ")
    except Exception:
        street = "%d %s" % (rng.randint(1, 300), fake.last_name())
    if REGIONS[region][0] == "en_US" and region != "US":
        street = "%d %s" % (rng.randint(1, 300), fake.street_name())
    city = fake.city()
    try:
        pc = fake.postcode()
    except Exception:
        pc = str(rng.randint(10000, 99999))
    if region in POSTCODES:
        pc = "".join(str(rng.randint(1 if i == 0 else 0, 9)) if c == "#" else c for i, c in enumerate(POSTCODES[region]))
    state = ""
    if region in ("US", "CA", "AU"):
        try:
            state = fake.state_abbr() if region != "CA" else fake.province_abbr()
        except Exception:
            state = ""
        if region == "CA":
            try:
                pc = fake.postalcode()
            except Exception:
                pass
        city_line = "%s, %s %s" % (city, state, pc) if region != "AU" else "%s %s %s" % (city, state, pc)
    elif region in ("GB", "IE", "NZ"):
        city_line = "%s %s" % (city, pc)
    elif region == "BR":
        try:
            state = fake.estado_sigla()
        except Exception:
            state = "SP"
        pcf = pc if "-" in pc else pc[:5] + "-" + pc[5:]
        pc = pcf
        city_line = rng.choice(["%s - %s" % (city, state), "CEP %s - %s - %s" % (pc, city, state), "%s/%s %s" % (city, state, pc)])
        if rng.random() < 0.5:
            street += " - " + rng.choice([fake.bairro() if hasattr(fake, "bairro") else "Centro", "Centro", "Sala %d" % rng.randint(1, 99)])
    elif region == "IT":
        city_line = "%s %s (%s)" % (pc, city, city[:2].upper())
    else:
        city_line = "%s %s" % (pc, city)
    lines = [street, city_line]
    if rng.random() < 0.3:
        lines = [street + rng.choice([", ", " - ", " | ", " · "]) + city_line]
    if rng.random() < 0.2:
        lines.append(rng.choice(REGIONS[region][3]))
    return dict(street=street, city=city, region=state, postalCode=pc, lines=lines)


# --- the card -----------------------------------------------------------------------------------------


def label_for(rng, lang, kind, split):
    table = LABELS.get(lang, LABELS["en"])
    if rng.random() < 0.25:
        table = LABELS["en"]
    words = table[kind]
    if split == "train":
        words = words[:max(1, (len(words) * 2 + 2) // 3)]
    return rng.choice(words)


def labelled(rng, label, value, split, style):
    if style == "none":
        return value
    if style == "icon":
        return rng.choice(["", "", "@ ", "© ", "® ", "& ", "% ", "Q ", "O ", "@) ", "(© ", "\\ ", "= "]) + value
    seps = SEPARATORS_TRAIN if split == "train" else SEPARATORS_TRAIN + SEPARATORS_CHECK
    sep = rng.choice(seps)
    if style == "upper":
        label = label.upper()
    return label + sep + value


def make_card(rng, split):
    regions = [r for r in REGIONS if (r in CHECK_REGIONS) == (split == "check")] if split == "check" else \
        [r for r in REGIONS if r not in CHECK_REGIONS]
    weights = [3 if r in ("US", "GB", "BR", "DE") else 1 for r in regions]
    region = rng.choices(regions, weights)[0]
    locale, lang, tlds, _ = REGIONS[region]
    fake = faker_for(locale)
    fake.seed_instance(rng.randint(0, 10 ** 9))
    kinds = ["corporate", "shop", "minimal", "twopeople", "back", "firstname"]
    kind = rng.choices(kinds, [52, 22, 8, 5, 5, 8])[0]
    if split == "check" and rng.random() < 0.15:
        kind = rng.choice(kinds)

    person = make_person(rng, fake, lang, region, split) if kind in ("corporate", "minimal", "twopeople") else None
    if kind == "firstname":
        first = fake.first_name()
        person = dict(full=first.upper() if rng.random() < 0.2 else first, given=first, family=None)
    family = person["family"] if person and person.get("family") else fake.last_name()
    org, slug = make_org(rng, fake, lang, region, family, "shop" if kind in ("shop", "firstname", "back") or rng.random() < 0.1 else "corp", split)
    if kind == "minimal" and rng.random() < 0.6:
        org = None
    title = make_title(rng, fake, lang, split) if kind in ("corporate", "twopeople") and rng.random() < 0.9 else None
    if kind == "minimal" and rng.random() < 0.5:
        title = make_title(rng, fake, lang, split)
    tld = rng.choice(tlds)
    domain = "%s.%s" % (slug, tld)
    if rng.random() < 0.12 and person:
        domain = "%s.%s" % (ascii_slug(person["family"] or person["given"])[:14] or slug, tld)

    # Contact values.
    emails, urls, phones = [], [], []
    if kind != "back" and rng.random() < 0.8:
        if person and person.get("family") and rng.random() < 0.75:
            g, f = ascii_slug(person["given"].split(" ")[0]), ascii_slug(person["family"].split(" ")[-1])
            local = rng.choice([g + "." + f, g[0] + f, g, f, g + "_" + f, g + f, f + "." + g, g[0] + "." + f])
        else:
            local = rng.choice(["info", "contact", "contato", "kontakt", "hello", "office", "vendas", "ventas", "sales", slug[:12]])
        host = domain if rng.random() < 0.8 else rng.choice(WEBMAIL)
        if host in WEBMAIL and rng.random() < 0.5:
            local = slug[:14] + rng.choice(["", str(rng.randint(1, 2024))])
        emails.append(local + "@" + host)
        if rng.random() < 0.06:
            emails.append(rng.choice(["info", "sales", "admin"]) + "@" + domain)
    if kind != "minimal" or rng.random() < 0.5:
        if rng.random() < 0.65:
            urls.append(rng.choice(["www." + domain, domain, "https://" + domain, "www." + domain, "http://www." + domain]))
    nphones = 0 if kind == "back" else rng.choices([0, 1, 2, 3, 4], [5, 35, 38, 17, 5])[0]
    for _ in range(nphones):
        k = rng.choices(["work", "mobile", "fax"], [50, 38, 12])[0]
        p = make_phone(rng, region, k)
        if p and all(p["e164"] != q["e164"] for q in phones):
            phones.append(p)
    address = make_address(rng, fake, region, lang, split) if kind != "back" and rng.random() < 0.65 else None
    social = None
    if rng.random() < 0.12:
        social = rng.choice(SOCIAL) % (slug + rng.choice(["", "oficial", "_", "br", "co"]))

    card = Card()
    layout = rng.random()
    label_style = rng.choices(["word", "none", "icon", "upper"], [50, 22, 20, 8])[0]

    def add_org(size="large"):
        if org:
            card.add(org, "org", size)

    title_first = rng.random() < 0.07
    printed = {}

    def add_person():
        if person:
            if title and title_first:
                card.add(title, "title", "small")
            card.add(person["full"], "name", "large" if kind != "shop" else "medium")
            if title and not title_first:
                if rng.random() < 0.1 and " & " not in title:
                    sep = rng.choice([" | ", ", ", " - "])
                    card.add(title + sep + rng.choice(DEPARTMENTS.get(lang, DEPARTMENTS["en"])), "title+dept", "small")
                    if sep != " | ":
                        printed["title"] = card.lines[-1][0]  # one field: the title is the whole line
                else:
                    card.add(title, "title", "small")
                if rng.random() < 0.1:
                    card.add(rng.choice(DEPARTMENTS.get(lang, DEPARTMENTS["en"])), "dept", "small")

    def add_tagline():
        lang_words = SERVICE_WORDS.get(lang, SERVICE_WORDS["en"])
        r = rng.random()
        if r < 0.4:
            try:
                t = fake.catch_phrase()
            except Exception:
                t = ", ".join(rng.sample(lang_words, 3))
        elif r < 0.8:
            t = rng.choice([", ", " - ", " • ", " | ", " e ", " / "]).join(rng.sample(lang_words, rng.randint(2, 4)))
            t = t[0].upper() + t[1:]
        else:
            trades = TRADES.get(lang) or TRADES["en"]
            t = rng.choice([" - ", ", ", " • ", " | "]).join(rng.sample(trades, rng.randint(2, 3)))
        r = rng.random()
        if r < 0.3:
            t = t.upper()
        elif r < 0.45:
            t = t.lower()
        card.add(t, "tagline", "small")

    def add_contacts():
        by_kind = {}
        for p in phones:
            by_kind.setdefault(p["type"], []).append(p)
        lines = []
        if rng.random() < 0.2 and len(phones) >= 2:
            # Several numbers after one label.
            lab = label_for(rng, lang, phones[0]["type"], split)
            printed = shared_area_code(phones) if rng.random() < 0.4 else [p["printed"] for p in phones]
            lines.append(labelled(rng, lab, rng.choice(MULTI_SEPARATORS).join(printed), split, label_style))
        else:
            stacked = label_style == "word" and rng.random() < 0.06
            for p in phones:
                value = p["printed"]
                if rng.random() < 0.05:
                    value += rng.choice([" ext. %d", " x%d", " Ramal %d", " int. %d"]) % rng.randint(10, 999)
                if stacked:
                    # The label on its own line above the number.
                    lines.append(label_for(rng, lang, p["type"], split) + rng.choice(["", ":"]) + "\n" + value)
                else:
                    lines.append(labelled(rng, label_for(rng, lang, p["type"], split), value, split, label_style))
        for e in emails:
            lines.append(labelled(rng, label_for(rng, lang, "email", split), e, split, label_style))
        for u in urls:
            lines.append(labelled(rng, label_for(rng, lang, "web", split), u, split, label_style if rng.random() < 0.6 else "none"))
        if social:
            lines.append(social)
        rng.shuffle(lines) if rng.random() < 0.3 else None
        # Two values on one line (set side by side on the card).
        merged = []
        i = 0
        while i < len(lines):
            if i + 1 < len(lines) and rng.random() < 0.15:
                merged.append(lines[i] + rng.choice(["  ", " | ", "   ", " • ", " "]) + lines[i + 1])
                i += 2
            else:
                merged.append(lines[i])
                i += 1
        for l in merged:
            for part in l.split("\n"):
                card.add(part, "contact", "small")

    def add_address():
        if address:
            lines = list(address["lines"])
            if rng.random() < 0.12:
                lines[0] = rng.choice(ADDRESS_LABELS.get(lang, ADDRESS_LABELS["en"]) + ADDRESS_LABELS["en"]) + rng.choice([": ", " ", " | "]) + lines[0]
            for l in lines:
                card.add(l, "address", "small")

    def add_extras():
        if rng.random() < 0.15:
            card.add(rng.choice(HOURS.get(lang, HOURS["en"])), "other", "small")
        if rng.random() < (0.15 if kind in ("shop", "firstname", "back") else 0.04):
            # A word on its own: the trade, a service, a heading ("CATERING", "Portfolio").
            words = (TRADES.get(lang) or TRADES["en"]) + [w.capitalize() for w in SERVICE_WORDS.get(lang, SERVICE_WORDS["en"]) if " " not in w] \
                + HEADINGS.get(lang, HEADINGS["en"])
            word = rng.choice([w for w in words if " " not in w] or ["Services"])
            card.add(word.upper() if rng.random() < 0.5 else word, "other", rng.choice(["small", "medium", "large"]))

    if kind == "corporate" and person and org and rng.random() < 0.07:
        # Name and company side by side, read by OCR as one line.
        if not any(org.lower().endswith(" " + l.lower()) for l in LEGAL.get(lang, LEGAL["en"])):
            org = org + " " + rng.choice(LEGAL.get(lang, LEGAL["en"]))
        card.add(person["full"] + rng.choice(["  ", " ", " ", " "]) + org, "name+org", "large")
        if title:
            card.add(title, "title", "small")
        add_contacts()
        add_address()
    elif kind == "back":
        add_org("large")
        if rng.random() < 0.6:
            add_tagline()
        for u in urls:
            card.add(u, "contact", "small")
    elif kind in ("shop", "firstname"):
        add_org("huge")
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            add_tagline()
        if kind == "firstname" and rng.random() < 0.5:
            card.add(person["full"], "name", "medium")
        add_extras()
        if kind == "firstname" and not any(role == "name" for _, role, _ in card.lines):
            # The first name beside a number ("JON 555 0100") or alone after the numbers.
            if phones and rng.random() < 0.5:
                p = phones[0]
                card.add(person["full"] + rng.choice([" ", "  ", " - ", ": "]) + p["printed"], "name+contact", "small")
                phones.pop(0)
                add_contacts()
                phones.insert(0, p)
            else:
                add_contacts()
                card.add(person["full"], "name", "medium")
        else:
            add_contacts()
        add_address()
    elif kind == "twopeople":
        add_org("large")
        second = make_person(rng, fake, lang, region, split)
        if rng.random() < 0.5:
            card.add(person["full"] + rng.choice([" / ", " & ", " e ", "  "]) + second["full"], "second-name", "medium")
        else:
            add_person()
            card.add(second["full"], "second-name", "medium")
        add_contacts()
        add_address()
    else:
        if layout < 0.4:
            add_org("large")
            if rng.random() < 0.2:
                add_tagline()
            add_person()
        elif layout < 0.7:
            add_person()
            add_org("medium")
        elif layout < 0.75 and person and title:
            # The company between the name and the title.
            card.add(person["full"], "name", "large")
            add_org("medium")
            card.add(title, "title", "small")
        elif layout < 0.8:
            # Contact details above the person.
            add_contacts()
            add_person()
            add_org("medium")
        else:
            add_person()
        if not (0.75 <= layout < 0.8):
            add_contacts()
        add_address()
        if layout >= 0.8:
            add_org("large")
        if rng.random() < 0.1:
            add_tagline()
        add_extras()

    truth = dict(name=person["full"] if person else None, given=person["given"] if person else None,
                 family=person.get("family") if person else None,
                 title=printed.get("title", title) if any(r.startswith("title") for _, r, _ in card.lines) else None,
                 organization=org, emails=emails, urls=urls,
                 phones=[dict(type=p["type"], printed=p["printed"], e164=p["e164"], valid=p["valid"]) for p in phones],
                 address=dict(lines=address["lines"], street=address["street"], city=address["city"], region=address["region"],
                              postalCode=address["postalCode"], country=None) if address else None,
                 region=region, kind=kind)
    return card, truth


# --- what OCR makes of it -------------------------------------------------------------------------------

CONFUSIONS = {"e": "c", "c": "e", "o": "0", "O": "0", "0": "O", "l": "1", "1": "l", "I": "l", "i": "l", "rn": "m", "m": "rn",
              "S": "5", "5": "S", "B": "8", "a": "o", "n": "ri", "h": "b", "u": "v", "ç": "g", "ã": "a", "é": "6",
              "ó": "6", "í": "i", "ê": "e", "ô": "o", "õ": "o", "ü": "u", "ö": "o", "ä": "a", "ß": "B", "t": "f", "f": "t",
              ".": ",", ",": ".", "@": "®", "-": "—", "D": "O", "G": "C", "R": "K", "y": "v", "g": "q", "q": "g"}
JUNK_CHARS = "abcdefghijklmnoprstuvwyzACEFGHIKLMNOPRSTW~=|\\/_-.,;:'\"()[]{}<>*«»©®%&$#!?1234567890 "


def junk_text(rng):
    r = rng.random()
    if r < 0.4:
        return "".join(rng.choice(JUNK_CHARS) for _ in range(rng.randint(1, 12))).strip() or "~"
    if r < 0.8:
        words = []
        for _ in range(rng.randint(1, 6)):
            n = rng.randint(1, 6)
            w = "".join(rng.choice("aeiouyrstlnmcdpbgfhkwzvx") for _ in range(n))
            if rng.random() < 0.4:
                w = w.capitalize()
            if rng.random() < 0.2:
                w = w.upper()
            words.append(w)
        return " ".join(words)
    return rng.choice(["ee", "oe", "a", "Se", "Pe", "\\s", "| |", "—", "a ee", "Sa \\s", "fy a", "rn", "AS on", "iz"]) + \
        (" " + "".join(rng.choice("aeiorstnl") for _ in range(rng.randint(1, 5))) if rng.random() < 0.5 else "")


def ocr_noise(rng, text, level, drop_accents):
    if drop_accents:
        text = strip_accents(text)
    out = []
    i = 0
    p = [0.0, 0.012, 0.04, 0.09][level]
    while i < len(text):
        if rng.random() < p:
            two = text[i:i + 2]
            if two in CONFUSIONS:
                out.append(CONFUSIONS[two]); i += 2; continue
            ch = text[i]
            r = rng.random()
            if ch in CONFUSIONS and r < 0.6:
                out.append(CONFUSIONS[ch])
            elif r < 0.7 and ch == " ":
                pass  # a lost space
            elif r < 0.8:
                out.append(ch + " ")  # a space too many
            elif r < 0.9:
                out.append(ch.swapcase())
            # else: the letter is lost
            i += 1
            continue
        out.append(text[i])
        i += 1
    s = "".join(out)
    # Logo or icon debris before or after the text.
    if rng.random() < [0.02, 0.06, 0.15, 0.3][level]:
        s = junk_text(rng).split(" ")[0][:4] + " " + s
    if rng.random() < [0.02, 0.06, 0.15, 0.3][level]:
        s = s + " " + junk_text(rng).split(" ")[0][:4]
    return s.strip()


SIZES = {"huge": (60, 110), "large": (34, 64), "medium": (26, 42), "small": (15, 28)}


def render_lines(rng, card, split, clean=False):
    """Positions, heights, words and confidences of the lines on a card of 1024 px, with OCR noise
    (none with `clean`: the text as printed, for telling the parser's own errors from OCR's)."""
    quality = 0 if clean else rng.choices([0, 1, 2, 3], [30, 35, 23, 12])[0]
    drop_accents = not clean and rng.random() < 0.4
    width = 1024
    out, roles = [], []
    top = rng.uniform(20, 120)
    align = rng.choice(["left", "left", "center", "right"])
    margin = rng.uniform(30, 120)
    # Junk above the text (a logo read as letters).
    def junk_lines(n):
        nonlocal top
        for _ in range(n):
            h = rng.uniform(12, 160)
            text = junk_text(rng)
            words = text.split(" ")
            out.append(make_line(rng, text, h, top, rng.uniform(0, 600), rng.uniform(0.0, 0.55)))
            roles.append("junk")
            top += h * rng.uniform(1.1, 1.8)
    scale = rng.uniform(0.8, 1.2)
    n_junk = 0 if clean else [rng.choice([0, 0, 0, 1]), rng.choice([0, 1, 1, 2]), rng.randint(1, 4), rng.randint(2, 8)][quality]
    before = rng.randint(0, n_junk)
    junk_lines(before)
    for text, role, size in card.lines:
        if quality >= 2 and rng.random() < [0, 0, 0.05, 0.12][quality] and role not in ("name",):
            continue  # a line OCR did not read
        lo, hi = SIZES[size]
        h = rng.uniform(lo, hi) * scale
        noisy = text if clean else ocr_noise(rng, text, quality if rng.random() < 0.7 else max(0, quality - 1), drop_accents)
        if not noisy:
            continue
        est_width = min(width - 20, len(noisy) * h * 0.5)
        left = margin if align == "left" else (width - est_width) / 2 if align == "center" else width - margin - est_width
        conf = max(0.05, min(0.99, rng.gauss([0.93, 0.85, 0.72, 0.55][quality], 0.08)))
        out.append(make_line(rng, noisy, h, top, max(0, left), conf))
        roles.append(role)
        top += h * rng.uniform(1.15, 1.9)
        if rng.random() < 0.08 * quality:
            junk_lines(1)
    junk_lines(n_junk - before)
    if rng.random() < 0.12 and len(out) >= 4:
        # Two columns read as one line: a line of the left column beside one of the right, with a
        # wide gap (OCR's words keep their places) or, less often, hardly any.
        people = [i for i, r in enumerate(roles) if r in ("name", "title", "org", "tagline")]
        data = [i for i, r in enumerate(roles) if r in ("contact", "address")]
        for i, j in zip(people, data):
            if rng.random() < 0.6 and "words" in out[i] and "words" in out[j]:
                gap = out[i]["h"] * (rng.uniform(3, 8) if rng.random() < 0.8 else rng.uniform(0.3, 0.6))
                out[i] = beside(out[i], out[j], gap)
                roles[i] = roles[i] + "+" + roles[j]
                out[j] = None
        keep = [k for k, l in enumerate(out) if l is not None]
        out, roles = [out[k] for k in keep], [roles[k] for k in keep]
    if rng.random() < 0.12:
        # Plain text: no geometry, no confidence (text pasted, or from another OCR).
        out = [dict(text=l["text"]) for l in out]
    if rng.random() < 0.1 and not clean:
        # Read in another order (columns, OCR's blocks).
        k = rng.randint(1, max(1, len(out) - 1))
        out = out[k:] + out[:k]
        roles = roles[k:] + roles[:k]
    return out, roles


def beside(a, b, gap):
    """Line `b` read as the continuation of line `a`, `gap` pixels to its right."""
    shift = (a["words"][-1]["r"] + gap) - b["words"][0]["l"] if a["words"] and b["words"] else 0
    words = a["words"] + [dict(w, l=round(w["l"] + shift, 1), r=round(w["r"] + shift, 1)) for w in b["words"]]
    return dict(text=a["text"] + " " + b["text"], conf=round((a["conf"] + b["conf"]) / 2, 3), h=a["h"], top=a["top"],
                left=a["left"], words=words)


def make_line(rng, text, h, top, left, conf):
    words = []
    x = left
    for w in text.split(" "):
        if not w:
            x += h * 0.3
            continue
        wd = max(h * 0.3, len(w) * h * 0.5)
        words.append(dict(t=w, l=round(x, 1), r=round(x + wd, 1), c=round(max(0.0, min(1.0, rng.gauss(conf, 0.08))), 3)))
        x += wd + h * rng.uniform(0.25, 0.45)
    return dict(text=" ".join(w["t"] for w in words), conf=round(conf, 3), h=round(h, 1), top=round(top, 1),
                left=round(left, 1), words=words)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--split", choices=["train", "check"], default="train")
    ap.add_argument("--prefix", default="gen")
    ap.add_argument("--clean", action="store_true", help="no OCR noise: the text as printed")
    args = ap.parse_args()
    rng = random.Random("%s-%d" % (args.split, args.seed))
    Faker.seed(args.seed)
    for i in range(args.count):
        card, truth = make_card(rng, args.split)
        lines, roles = render_lines(rng, card, args.split, clean=args.clean)
        name = "%s-%s-%d-%05d.jpg" % (args.prefix, args.split, args.seed, i)
        truth["file"] = name
        print(json.dumps(dict(file=name, width=1024, height=600, rotation=0, lines=lines, roles=roles, truth=truth),
                         ensure_ascii=False))


if __name__ == "__main__":
    # A seed names one set of cards only if sets iterate alike in every run: Python salts string
    # hashes per process unless PYTHONHASHSEED is fixed.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable] + sys.orig_argv[1:])
    main()
