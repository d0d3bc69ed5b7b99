//! One variant's parameter values ([`ParamSet`]), with the game's declaration and defaults
//! beside them: the identity text a variant's streams derive from and the rules it changes.

use super::{Identity, ParamDef, ParamError, ParamValue, Params, RawValue};

/// Every parameter of a game with its value for one variant, in the game's declared order.
#[derive(Clone, Debug)]
pub struct ParamSet {
    defs: &'static [ParamDef],
    values: Vec<ParamValue>,
    defaults: Vec<ParamValue>,
}

/// The declared fields of `params`, each checked against its declaration.
fn values_of<P: Params>(params: &P) -> Result<Vec<ParamValue>, String> {
    let serde_json::Value::Object(mut fields) =
        serde_json::to_value(params).map_err(|err| err.to_string())?
    else {
        return Err("the parameters do not serialise as a struct".to_string());
    };
    let mut values = Vec::with_capacity(P::DECLARED.len());
    for def in P::DECLARED {
        let value = fields
            .remove(def.name)
            .ok_or_else(|| format!("'{}' is declared but not a field", def.name))?;
        values.push(def.parse(&RawValue::from_json(&value))?);
    }
    if let Some(field) = fields.keys().next() {
        return Err(format!("field '{field}' is not declared"));
    }
    Ok(values)
}

/// Equal when the values are (sets of one game share its declaration and defaults).
impl PartialEq for ParamSet {
    fn eq(&self, other: &ParamSet) -> bool {
        self.values == other.values
    }
}

impl ParamSet {
    /// The values of a typed parameter struct, each checked against its declaration.
    pub fn from_typed<P: Params>(params: &P) -> Result<ParamSet, String> {
        Ok(ParamSet {
            defs: P::DECLARED,
            values: values_of(params)?,
            defaults: values_of(&P::default())?,
        })
    }

    /// The typed parameter struct these values describe.
    pub fn typed<P: Params>(&self) -> Result<P, ParamError> {
        let fields: serde_json::Map<String, serde_json::Value> = self
            .iter()
            .map(|(name, value)| (name.to_string(), value.json()))
            .collect();
        serde_json::from_value(serde_json::Value::Object(fields)).map_err(|err| ParamError {
            key: self.defs.first().map_or("", |def| def.name),
            message: format!("the game's parameter declaration does not fit its struct: {err}"),
        })
    }

    fn index(&self, name: &str) -> usize {
        self.defs
            .iter()
            .position(|def| def.name == name)
            .unwrap_or_else(|| panic!("parameter {name} is not declared"))
    }

    /// Sets a declared parameter.
    ///
    /// # Panics
    /// If `name` is not one of the game's parameters (callers look names up first).
    pub fn set(&mut self, name: &str, value: ParamValue) {
        let index = self.index(name);
        self.values[index] = value;
    }

    /// The value of a declared parameter.
    ///
    /// # Panics
    /// If `name` is not one of the game's parameters: a programming error in a game module.
    pub fn get(&self, name: &str) -> &ParamValue {
        &self.values[self.index(name)]
    }

    /// An integer parameter.
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            ParamValue::Int(value) => *value,
            other => panic!("parameter {name} is {other:?}, not an integer"),
        }
    }

    /// A real parameter.
    pub fn float(&self, name: &str) -> f64 {
        match self.get(name) {
            ParamValue::Float(value) => *value,
            ParamValue::Int(value) => *value as f64,
            other => panic!("parameter {name} is {other:?}, not a number"),
        }
    }

    /// A choice parameter.
    pub fn choice(&self, name: &str) -> &'static str {
        match self.get(name) {
            ParamValue::Choice(value) => value,
            other => panic!("parameter {name} is {other:?}, not a choice"),
        }
    }

    /// A boolean parameter.
    pub fn boolean(&self, name: &str) -> bool {
        match self.get(name) {
            ParamValue::Bool(value) => *value,
            other => panic!("parameter {name} is {other:?}, not a boolean"),
        }
    }

    /// Every (name, value) pair in declared order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &ParamValue)> + '_ {
        self.defs.iter().map(|def| def.name).zip(&self.values)
    }

    /// The declarations, in order, beside their values.
    pub fn declared(&self) -> impl Iterator<Item = (&'static ParamDef, &ParamValue)> + '_ {
        self.defs.iter().zip(&self.values)
    }

    /// The rules ([`Identity::WhenChanged`]) not at their default, in declared order.
    pub fn changed_rules(&self) -> impl Iterator<Item = (&'static str, &ParamValue)> + '_ {
        self.defs
            .iter()
            .zip(self.values.iter().zip(&self.defaults))
            .filter(|(def, (value, default))| {
                def.identity == Identity::WhenChanged && value != default
            })
            .map(|(def, (value, _))| (def.name, value))
    }

    /// Whether parameter `name` belongs in tables: always, or for a rule when it is changed.
    pub fn shows(&self, name: &str) -> bool {
        let index = self.index(name);
        self.defs[index].identity == Identity::Always || self.values[index] != self.defaults[index]
    }

    /// The canonical text of these values: `name=value` lines sorted by name, leaving out
    /// rules at their default. Equal parameter values give equal text whatever order a spec
    /// wrote them in, and a rule added to a game leaves the text of older specs unchanged.
    pub fn canonical(&self) -> String {
        let mut pairs: Vec<String> = self
            .iter()
            .filter(|(name, _)| self.shows(name))
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        pairs.sort();
        pairs.join("\n")
    }
}
